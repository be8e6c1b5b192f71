/**
 * `npm run admin -- <command> [options]`: the server operator's tool for what
 * has no screen yet on an empty database (README "Production"). Uses
 * DATABASE_URL (the embedded PostgreSQL when it is not set, on a developer
 * machine only) and applies pending migrations first, like `npm start`.
 * Every action is in the audit log. Passwords are read from standard input
 * (`--password-stdin`), never from the command line (shell history, `ps`);
 * without one, a one-time set-password link valid 24 hours is printed.
 * Exit codes: 0 done, 1 refused (nothing changed), 2 bad usage.
 */
import "./lib/env-file"; // first: the settings file, before anything reads the environment
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { z } from "zod";
import { listAcademies } from "@/lib/admin/data";
import { createAcademy, createManager, createSchool, resetStaffPassword, unlockAccount } from "@/lib/admin/mutations";
import { academyInput, emailInput, managerInput, schoolInput, staffPasswordInput } from "@/lib/admin/schema";
import { db } from "@/lib/db";
import type { ActionResult } from "@/lib/errors";
import { logToStderr } from "@/lib/ops/log";
import { migrate } from "./lib/migrate";
import { prepareDatabase } from "./lib/prepare-db";

logToStderr(); // each audited action is a JSON line on stderr (lib/ops/log.ts); stdout is the tool's answer

const USAGE = `usage: npm run admin -- <command> [options]
  list-academies
  create-academy --name <name> [--name-kana <reading>]
  create-school  --academy <academy id> --name <name> [--name-kana <reading>]
  create-manager --academy <academy id> --email <e-mail> --name <name> [--name-kana <reading>] [--password-stdin]
  reset-password --email <e-mail of a teacher or manager> [--password-stdin]
  unlock         --email <e-mail>   (clears the sign-in throttle after too many tries)
Without --password-stdin a one-time set-password link (valid 24 hours) is printed.`;

class Usage extends Error {}

const REFUSALS: Record<string, string> = {
  NOT_FOUND: "not found: check the id or e-mail (list-academies lists the academies)",
  CONFLICT: "that e-mail address is already in use",
  FORBIDDEN: "students' passwords are reset by their teacher on the students screen",
};

const OPTION_OF: Record<string, string> = { academyId: "academy", nameKana: "name-kana", password: "password-stdin" };

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Usage(result.error.issues.map((i) => `--${OPTION_OF[String(i.path[0])] ?? String(i.path[0] ?? "?")}: ${i.message === "kana" ? "must be hiragana or katakana (spaces, ー and ・ allowed)" : i.message}`).join("\n"));
  return result.data;
}

function done<T>(result: ActionResult<T>): T {
  if (!result.ok) {
    console.error(`refused: ${REFUSALS[result.code] ?? result.code}`);
    process.exit(1);
  }
  return result.data;
}

function printCredential(link: string | null) {
  if (link) console.log(`set-password link (one use, valid 24 hours; give it only to this person):\n  ${link}`);
  else console.log("password set from standard input");
}

async function run(command: string, values: Record<string, string | boolean | undefined>) {
  const password = values["password-stdin"] ? readFileSync(0, "utf8").replace(/\r?\n$/, "") : undefined;
  const fields = { name: values.name, nameKana: values["name-kana"], academyId: values.academy, email: values.email, password };
  switch (command) {
    case "list-academies": {
      const academies = await listAcademies();
      if (academies.length === 0) console.log("no academies yet: create one with create-academy");
      for (const a of academies) console.log(`${a.id}  ${a.name}  (${a.schools} schools, ${a.managers} managers)`);
      return;
    }
    case "create-academy": {
      const academy = await createAcademy(parse(academyInput, fields));
      return console.log(`academy created: ${academy.id}`);
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
    default:
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
      "password-stdin": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || positionals.length !== 1) throw new Usage(values.help ? "" : "give exactly one command");
  if (process.env.NODE_ENV === "production" && !process.env.DATABASE_URL) {
    throw new Error("DATABASE_URL is required in production (the administrator's tool never starts the embedded database)");
  }
  const prepared = await prepareDatabase();
  await migrate(prepared.databaseUrl);
  try {
    await run(positionals[0]!, values);
  } finally {
    await db().$disconnect();
    if (prepared.embedded?.startedHere) await prepared.embedded.stop();
  }
}

main().catch((error: unknown) => {
  if (error instanceof Usage || (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
    if (error.message) console.error(error.message);
    console.error(USAGE);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
