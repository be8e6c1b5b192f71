/**
 * `npm run import:legacy -- <export.json> [--dry-run] [--school-academy <map.json>]`
 *
 * Imports academies, schools, managers, teachers and students from a JSON
 * export of the legacy document database (README "Importing from the legacy
 * product"; rules in features/rostering/). Uses DATABASE_URL, or the embedded
 * PostgreSQL when it is not set. A real run applies pending migrations first
 * (like `npm start`); a dry run refuses on a database that lacks them.
 * Exit codes: 0 done (or dry run), 1 the file or the data is refused
 * (nothing written), 2 bad usage.
 */
import "../../scripts/lib/env-file"; // first: the settings file, before anything reads the environment
import { createPrismaClient } from "@/platform/db/client";
import { parseEnv } from "@/platform/env";
import { type LegacyProblem, readLegacyExport, readSchoolAcademyMap } from "@/features/rostering/shared/legacy-format";
import { runImport } from "@/features/rostering/server/legacy-import";
import { readJsonFile } from "@/features/rostering/server/legacy-json-file";
import type { Plan } from "@/features/rostering/server/legacy-plan";
import { migrate, pendingMigrations } from "../../scripts/lib/migrate";
import { prepareDatabase } from "../../scripts/lib/prepare-db";

const USAGE = "usage: npm run import:legacy -- <export.json> [--dry-run] [--school-academy <map.json>] [--verbose]";
const LIST_LIMIT = 20;

function parseArgs(argv: string[]) {
  let file: string | undefined;
  let map: string | undefined;
  let dryRun = false;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--dry-run") dryRun = true;
    else if (arg === "--verbose") verbose = true;
    else if (arg === "--school-academy") map = argv[++i];
    else if (arg.startsWith("--school-academy=")) map = arg.slice("--school-academy=".length);
    else if (arg === "--help" || arg === "-h") return null;
    else if (arg.startsWith("-") || file) throw new Error(`unexpected argument: ${arg}`);
    else file = arg;
  }
  if (!file || (map !== undefined && !map)) throw new Error("missing the export file or the map file");
  return { file, map, dryRun, verbose };
}

class Refused extends Error {
  constructor(readonly problems: LegacyProblem[]) {
    super("refused");
  }
}

function refuse(problems: LegacyProblem[]): never {
  throw new Refused(problems);
}

function printRefusal(problems: LegacyProblem[]) {
  // a refusal from the database mid-run says itself which batches are written
  const midRun = problems.some((p) => p.path === "(database)" && p.message.includes("batches before it are written"));
  console.error(
    `Refused${midRun ? "" : ": nothing was written"}. ${problems.length} problem${problems.length === 1 ? "" : "s"}:`,
  );
  for (const p of problems.slice(0, 50)) console.error(`  ${p.path}: ${p.message}`);
  if (problems.length > 50) console.error(`  … and ${problems.length - 50} more`);
}

async function readJson(file: string, what: string): Promise<unknown> {
  const read = await readJsonFile(file, what);
  if (!read.ok) refuse(read.problems);
  return read.json;
}

/** A one-line bar on a terminal; otherwise (CI logs, pipes) a line per phase, per tenth of the hashing and per batch written. */
function progressReporter() {
  const tty = process.stderr.isTTY;
  const labels = { hashing: "hashing passwords (argon2id)", writing: "writing" } as const;
  let lastPhase = "";
  let lastDraw = 0;
  let lastTenth = -1;
  return (phase: keyof typeof labels, done: number, total: number) => {
    if (total === 0) return;
    if (!tty) {
      const tenth = Math.floor((done / total) * 10);
      if (phase !== lastPhase || phase === "writing" || tenth !== lastTenth)
        console.error(`${labels[phase]}: ${done}/${total}`);
      lastPhase = phase;
      lastTenth = tenth;
      return;
    }
    const t = Date.now();
    if (done !== total && phase === lastPhase && t - lastDraw < 100) return;
    lastPhase = phase;
    lastDraw = t;
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(
      `\r${labels[phase].padEnd(30)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`,
    );
    if (done === total) process.stderr.write("\n");
  };
}

function list(title: string, items: string[], verbose: boolean) {
  if (items.length === 0) return;
  console.log(`\n${title}: ${items.length}`);
  const shown = verbose ? items : items.slice(0, LIST_LIMIT);
  for (const item of shown) console.log(`  ${item}`);
  if (shown.length < items.length) console.log(`  … and ${items.length - shown.length} more (--verbose lists all)`);
}

function printReport(
  result: {
    dryRun: boolean;
    plan: Plan;
    counts: Record<string, Record<string, number>>;
    codesIssued: number;
    passwordsSet: number;
  },
  verbose: boolean,
) {
  const { plan, counts } = result;
  console.log(
    result.dryRun
      ? "\nDry run: nothing was written. The import would do this:"
      : "\nImported (academies and schools, then people in batches, each batch its own transaction):",
  );
  console.log(`${"".padEnd(12)}${["created", "updated", "unchanged", "skipped"].map((h) => h.padStart(11)).join("")}`);
  for (const kind of ["academies", "schools", "users"]) {
    const c = counts[kind]!;
    console.log(
      `${kind.padEnd(12)}${[c.created, c.updated, c.unchanged, c.skipped].map((n) => String(n).padStart(11)).join("")}`,
    );
  }
  console.log(
    `sign-in codes ${result.dryRun ? "to issue" : "issued"}: ${result.codesIssued}; passwords ${result.dryRun ? "to set" : "set"} (stored as argon2id hashes): ${result.passwordsSet}`,
  );

  const rows = [...plan.academies, ...plan.schools, ...plan.users];
  list(
    "Created",
    rows.filter((r) => r.action === "create").map((r) => r.path),
    verbose || result.dryRun,
  );
  list(
    "Updated",
    rows
      .filter((r) => r.action === "update")
      .map((r) => `${r.path}: ${r.changes.join(", ") || "student record added"}`),
    true,
  );
  list(
    "Skipped",
    [
      ...rows.filter((r) => r.action === "skip").map((r) => `${r.path}: ${r.reason}`),
      ...plan.skipped.map((s) => `${s.path}: ${s.reason}`),
    ],
    true,
  );
  list("Without a password (they sign in with a code, Google, or a password reset)", plan.withoutPassword, verbose);
  list(
    "Without a role document (imported with e-mail and role only: no name or nickname)",
    plan.profileMissing,
    verbose,
  );
  list(
    "Counterbalance groups not imported (Manabiya uses A, B, …; set them in the students table)",
    plan.groupsNotImported.map((g) => `${g.path}: "${g.value}"`),
    verbose,
  );
  list("Named by their id (the export has no name for them; rename them in Manabiya)", plan.namedById, true);
  list("Notes", plan.notes, true);
  const unassigned = plan.users.filter(
    (u) => u.action === "create" && u.role === "student" && u.details?.grade == null,
  ).length;
  if (unassigned > 0)
    console.log(
      `\n${unassigned} new student(s) have no class and number yet (the legacy data has none): teachers set them in the students table.`,
    );
}

async function main() {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (!args) {
    console.log(USAGE);
    return;
  }
  const read = readLegacyExport(await readJson(args.file, "export"));
  if (!read.ok) refuse(read.problems);
  let schoolAcademy: Map<string, string> | undefined;
  if (args.map) {
    const map = readSchoolAcademyMap(await readJson(args.map, "school-academy map"));
    if (!map.ok) refuse(map.problems);
    schoolAcademy = map.map;
  }
  const users = read.data.users.length;
  console.error(
    `${args.file}: ${users} users, ${read.data.schools.size} school and ${read.data.academies.size} academy documents`,
  );

  const database = await prepareDatabase();
  const prisma = createPrismaClient(database.databaseUrl, 4);
  try {
    if (args.dryRun) {
      // a dry run writes nothing, not even the schema
      const pending = await pendingMigrations(database.databaseUrl);
      if (pending.length > 0) {
        refuse([
          {
            path: "(database)",
            message: `${pending.length} migration(s) not applied yet (${pending.join(", ")}): run \`npm run db:migrate\` first; a real import applies them itself`,
          },
        ]);
      }
    } else await migrate(database.directUrl);
    const env = parseEnv(process.env);
    const result = await runImport(prisma, read.data, {
      dryRun: args.dryRun,
      schoolAcademy,
      signinCodeKey: env.SIGNIN_CODE_KEY,
      onProgress: progressReporter(),
    });
    if (!result.ok) refuse(result.problems);
    printReport(result, args.verbose);
  } finally {
    await prisma.$disconnect();
    if (database.embedded?.startedHere) await database.embedded.stop();
  }
}

try {
  await main();
} catch (error) {
  if (!(error instanceof Refused)) throw error;
  printRefusal(error.problems);
  process.exitCode = 1;
}
