/**
 * `npm run admin -- <command> [options]`: the server operator's tool for what
 * has no screen yet on an empty database (README "The first manager"). Uses
 * DATABASE_URL (the embedded PostgreSQL when it is not set, on a developer
 * machine only) and applies pending migrations first, like `npm start`.
 * Every action is in the audit log. Passwords are read from standard input
 * (`--password-stdin`), never from the command line (shell history, `ps`);
 * without one, a one-time set-password link valid 24 hours is printed.
 * `backup` and `restore` neither migrate first: a backup records the schema
 * as it is, a restore brings its own (tools/backup/).
 * Exit codes: 0 done, 1 refused (nothing changed), 2 bad usage.
 */
import "../../scripts/lib/env-file"; // first: the settings file, before anything reads the environment
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { z } from "zod";
import { removeOidcProvider, setEntraTenant, setOidcProvider } from "@/features/people/server/academy-commands";
import { listAcademies } from "@/features/people/server/admin-queries";
import {
  auditMaintenance,
  createAcademy,
  createManager,
  createSchool,
  resetSecondFactors,
  resetStaffPassword,
  unlockAccount,
} from "@/features/people/server/admin-commands";
import {
  academyInput,
  backupInput,
  emailInput,
  entraTenantCliInput,
  managerInput,
  oidcProviderCliInput,
  restoreInput,
  schoolInput,
  staffPasswordInput,
} from "@/features/people/shared/admin-schema";
import type { ActionResult } from "@/platform/errors";
import { logToStderr } from "@/platform/ops/log";
import { loadBundledLibraryInto } from "@/features/activities/server/academy-library-commands";
import { removeLtiPlatform, setLtiPlatform } from "@/features/lti/server/platform-commands";
import { KEY_OVERLAP_DAYS, rotateToolKey } from "@/features/lti/server/keys";
import { ltiPlatformCliInput } from "@/features/lti/shared/platform-input";
import { removeLrs, setLrs } from "@/features/lti/server/lrs-commands";
import { lrsCliInput } from "@/features/lti/shared/lrs-input";
import { recountSent } from "@/features/lti/server/xapi-deliver-commands";
import { backupDatabase } from "../backup/backup";
import { BackupRefused } from "../backup/format";
import { restoreDatabase } from "../backup/restore";
import { withCliDatabase } from "./database";

logToStderr(); // each audited action is a JSON line on stderr (platform/ops/log.ts); stdout is the tool's answer

const USAGE = `usage: npm run admin -- <command> [options]
  list-academies
  create-academy --name <name> [--name-kana <reading>]
  create-school  --academy <academy id> --name <name> [--name-kana <reading>]
  create-manager --academy <academy id> --email <e-mail> --name <name> [--name-kana <reading>] [--password-stdin]
  reset-password --email <e-mail of a teacher or manager> [--password-stdin]
  unlock         --email <e-mail>   (clears the sign-in throttle after too many tries)
  reset-factors  --email <e-mail of a teacher or manager>   (removes their authenticator app, recovery codes and passkeys,
                 signs them out; their next sign-in needs no code, or sets up a new app when the academy requires one)
  set-entra-tenant --academy <academy id> --tenant <directory (tenant) id, or "" to unbind>
                 (Microsoft sign-in: only accounts of this Entra ID tenant sign in to the academy)
  set-oidc-provider --academy <academy id> --slug <link name> --name <button text> --issuer <https URL>
                 --client-id <id> --claim <email|sub|roster id claim> --roles <student,teacher,manager> [--secret-stdin]
                 (the academy's own OpenID Connect provider: its button on /signin?academy=<slug>; the redirect URI
                 to register is AUTH_URL/api/auth/callback/oidc-<slug>; the client secret from standard input,
                 required the first time, kept when not given)
  remove-oidc-provider --academy <academy id>
  set-lti-platform --academy <academy id> --issuer <platform issuer> --client-id <our client id there>
                 --deployments <id,id…> --auth-url <platform OIDC auth URL> --token-url <URL> --jwks-url <URL>
                 [--claim <sub|custom claim carrying the OneRoster sourcedId>]
                 (a 学習eポータル launching us over LTI 1.3; register AUTH_URL/api/lti/login, AUTH_URL/api/lti/launch
                 and AUTH_URL/api/lti/jwks there: README "Launching from a 学習eポータル")
  remove-lti-platform --academy <academy id>
  rotate-lti-key   a new signing key for LTI; the previous public key stays published 7 days
  set-lrs --academy <academy id> --endpoint <xAPI endpoint URL> --key <Basic key> --secret-stdin [--include-names]
                 (the academy's Learning Record Store: answers, starts and completions go there as xAPI statements,
                 the person named by OneRoster sourcedId only, unless --include-names; README "Learning records (xAPI)")
  remove-lrs --academy <academy id>
  recount-lrs-sent counts again each academy's statements sent to its LRS, as its manager's card shows them (after a
                 rolling upgrade: features/lti/README.md "Learning records"); storing and sending wait while it counts
  backup  FILE [--force]   every table, from one consistent snapshot while the school keeps working
  restore FILE             into an EMPTY database only (a new one: see README "Backups"), all or nothing
Without --password-stdin a one-time set-password link (valid 24 hours) is printed.
A backup file holds password hashes and sealed sign-in codes: it is written with mode 0600;
keep it as carefully as the database itself (never in a shared folder or unencrypted mail).`;

class Usage extends Error {}

const REFUSALS: Record<string, string> = {
  NOT_FOUND: "not found: check the id or e-mail (list-academies lists the academies)",
  CONFLICT: "that e-mail address is already in use",
  FORBIDDEN: "students' passwords are reset by their teacher on the students screen",
};

const OPTION_OF: Record<string, string> = {
  academyId: "academy",
  nameKana: "name-kana",
  password: "password-stdin",
  tenantId: "tenant",
  displayName: "name",
  clientId: "client-id",
  clientSecret: "secret-stdin",
  identityClaim: "claim",
  allowedRoles: "roles",
  deploymentIds: "deployments",
  authLoginUrl: "auth-url",
  tokenUrl: "token-url",
  jwksUrl: "jwks-url",
  secret: "secret-stdin",
  includeNames: "include-names",
};

/** How the usage names an input: its option, or FILE (a positional). */
const label = (key: string) => (key === "file" ? "FILE" : `--${OPTION_OF[key] ?? key}`);

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Usage(
      result.error.issues
        .map(
          (i) =>
            `${label(String(i.path[0] ?? "?"))}: ${i.message === "kana" ? "must be hiragana or katakana (spaces, ー and ・ allowed)" : i.message}`,
        )
        .join("\n"),
    );
  return result.data;
}

function done<T>(result: ActionResult<T>): T {
  if (!result.ok) {
    const fields = Object.entries(result.fieldErrors ?? {}).map(([key, why]) => `${label(key)}: ${why.join(", ")}`);
    console.error(`refused: ${fields.length > 0 ? fields.join("; ") : (REFUSALS[result.code] ?? result.code)}`);
    process.exit(1);
  }
  return result.data;
}

function printCredential(link: string | null) {
  if (link) console.log(`set-password link (one use, valid 24 hours; give it only to this person):\n  ${link}`);
  else console.log("password set from standard input");
}

/** backup and restore: their own connection to `databaseUrl`, progress on standard error. */
async function maintain(
  command: "backup" | "restore",
  databaseUrl: string,
  file: string | undefined,
  force: boolean | undefined,
) {
  if (command === "backup") {
    const input = parse(backupInput, { file, force: force ?? false });
    const result = await backupDatabase(databaseUrl, input.file, { force: input.force });
    console.log(`backup written: ${input.file} (${result.tables} tables, ${result.rows} rows)`);
    return auditMaintenance("admin.backup", { file: input.file, tables: result.tables, rows: result.rows });
  }
  const input = parse(restoreInput, { file });
  const result = await restoreDatabase(databaseUrl, input.file);
  console.log(
    `restored: ${input.file} (${result.tables} tables, ${result.rows} rows)${result.migratedForward.length ? `, then migrated forward: ${result.migratedForward.join(", ")}` : ""}`,
  );
  return auditMaintenance("admin.restore", { file: input.file, tables: result.tables, rows: result.rows });
}

/** The LTI commands (features/lti/README.md); false: not one of them. */
async function runLti(command: string, values: Record<string, string | boolean | undefined>, academy: unknown) {
  switch (command) {
    case "set-lti-platform": {
      const { academyId, ...platform } = parse(ltiPlatformCliInput, {
        academyId: academy,
        ...{ issuer: values.issuer, clientId: values["client-id"], deploymentIds: values.deployments ?? "" },
        ...{ authLoginUrl: values["auth-url"], tokenUrl: values["token-url"], jwksUrl: values["jwks-url"] },
        identityClaim: values.claim,
      });
      done(await setLtiPlatform(academyId, platform, { via: "cli" }));
      console.log(`LTI platform set: ${platform.issuer} (client id ${platform.clientId})`);
      return true;
    }
    case "remove-lti-platform":
      done(
        await removeLtiPlatform(
          parse(ltiPlatformCliInput.pick({ academyId: true }), { academyId: academy }).academyId,
          { via: "cli" },
        ),
      );
      console.log("LTI platform removed");
      return true;
    case "rotate-lti-key": {
      const { kid, retired } = await rotateToolKey();
      console.log(
        `LTI signing key rotated: now ${kid}${retired ? `; ${retired} stays published ${KEY_OVERLAP_DAYS} days` : ""}`,
      );
      return true;
    }
    default:
      return false;
  }
}

/** The learning records' commands (features/lti/README.md "Learning records"); false: not one of them. */
async function runLrs(command: string, values: Record<string, string | boolean | undefined>, academy: unknown) {
  if (command === "set-lrs") {
    const secret = values["secret-stdin"] ? readFileSync(0, "utf8").replace(/\r?\n$/, "") : undefined;
    const { academyId, ...lrs } = parse(lrsCliInput, {
      academyId: academy,
      ...{ endpoint: values.endpoint, key: values.key, secret, includeNames: values["include-names"] ?? false },
    });
    done(await setLrs(academyId, lrs, { via: "cli" }));
    console.log(`LRS set: ${lrs.endpoint}${lrs.includeNames ? " (with names)" : ""}`);
    return true;
  }
  if (command === "recount-lrs-sent") {
    const { academies, sent } = await recountSent();
    console.log(`statements sent, counted again: ${sent} in ${academies} academies`);
    await auditMaintenance("admin.recount-lrs-sent", { academies, sent: Number(sent) });
    return true;
  }
  if (command !== "remove-lrs") return false;
  done(await removeLrs(parse(lrsCliInput.pick({ academyId: true }), { academyId: academy }).academyId, { via: "cli" }));
  console.log("LRS removed");
  return true;
}

async function run(command: string, values: Record<string, string | boolean | undefined>) {
  const stdin = () => readFileSync(0, "utf8").replace(/\r?\n$/, "");
  const password = values["password-stdin"] ? stdin() : undefined;
  const fields = {
    name: values.name,
    nameKana: values["name-kana"],
    academyId: values.academy,
    email: values.email,
    password,
    tenantId: values.tenant,
  };
  switch (command) {
    case "list-academies": {
      const academies = await listAcademies();
      if (academies.length === 0) console.log("no academies yet: create one with create-academy");
      for (const a of academies) console.log(`${a.id}  ${a.name}  (${a.schools} schools, ${a.managers} managers)`);
      return;
    }
    case "create-academy": {
      const academy = await createAcademy(parse(academyInput, fields));
      const added = await loadBundledLibraryInto(academy.id);
      return console.log(`academy created: ${academy.id} (library: ${added} ready activities)`);
    }
    case "create-school":
      return console.log(`school created: ${done(await createSchool(parse(schoolInput, fields))).id}`);
    case "create-manager": {
      const manager = done(await createManager(parse(managerInput, fields)));
      console.log(`manager created: ${manager.id}`);
      return printCredential(manager.link);
    }
    case "reset-password":
      return printCredential(done(await resetStaffPassword(parse(staffPasswordInput, fields))).link);
    case "unlock": {
      const { cleared } = done(await unlockAccount(parse(emailInput, fields).email));
      return console.log(cleared > 0 ? "unlocked: the account can sign in again now" : "the account was not locked");
    }
    case "reset-factors": {
      const { removed } = done(await resetSecondFactors(parse(emailInput, fields).email));
      return console.log(
        removed ? "second factor removed and the person signed out" : "the person had no second factor (signed out)",
      );
    }
    case "set-entra-tenant": {
      const input = parse(entraTenantCliInput, fields);
      done(await setEntraTenant(input.academyId, input.tenantId, { via: "cli" }));
      return console.log(input.tenantId ? `academy bound to Entra ID tenant ${input.tenantId}` : "academy unbound");
    }
    case "set-oidc-provider": {
      const { academyId, ...provider } = parse(oidcProviderCliInput, {
        ...fields,
        ...{ slug: values.slug, displayName: values.name, issuer: values.issuer, clientId: values["client-id"] },
        ...{
          identityClaim: values.claim,
          allowedRoles: String(values.roles ?? "")
            .split(",")
            .filter(Boolean),
        },
        clientSecret: values["secret-stdin"] ? stdin() : "",
      });
      done(await setOidcProvider(academyId, provider, { via: "cli" }));
      return console.log(`academy provider set: sign-in link /signin?academy=${provider.slug}`);
    }
    case "remove-oidc-provider":
      done(
        await removeOidcProvider(parse(entraTenantCliInput.pick({ academyId: true }), fields).academyId, {
          via: "cli",
        }),
      );
      return console.log("academy provider removed");
    default:
      if (!(await runLti(command, values, fields.academyId)) && !(await runLrs(command, values, fields.academyId)))
        throw new Usage(`unknown command: ${command}`);
  }
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      "name-kana": { type: "string" },
      academy: { type: "string" },
      email: { type: "string" },
      tenant: { type: "string" },
      slug: { type: "string" },
      issuer: { type: "string" },
      "client-id": { type: "string" },
      claim: { type: "string" },
      roles: { type: "string" },
      deployments: { type: "string" },
      "auth-url": { type: "string" },
      "token-url": { type: "string" },
      "jwks-url": { type: "string" },
      endpoint: { type: "string" },
      key: { type: "string" },
      "include-names": { type: "boolean" },
      "password-stdin": { type: "boolean" },
      "secret-stdin": { type: "boolean" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, file] = positionals;
  const maintenance = command === "backup" || command === "restore";
  if (values.help) {
    console.log(USAGE); // asked for: the usage on standard output, success
    return;
  }
  if (!command || positionals.length > (maintenance ? 2 : 1)) throw new Usage("give exactly one command");
  await withCliDatabase(
    (databaseUrl) => (maintenance ? maintain(command, databaseUrl, file, values.force) : run(command, values)),
    { migrate: !maintenance },
  );
}

main().catch((error: unknown) => {
  if (
    error instanceof Usage ||
    (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
  ) {
    if (error.message) console.error(error.message);
    console.error(USAGE);
    process.exit(2);
  }
  console.error(
    error instanceof BackupRefused ? `refused: ${error.message}` : error instanceof Error ? error.message : error,
  );
  process.exit(1);
});
