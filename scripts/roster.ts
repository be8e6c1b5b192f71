/**
 * `npm run roster -- import PATH --academy ACADEMY [--dry-run] [--json]` and
 * `npm run roster -- export PATH --academy ACADEMY [--school SCHOOL]`: OneRoster 1.2 (Japan
 * Profile) sets for IT offices (docs/oneroster.md). PATH is a zip or a folder of CSV files;
 * ACADEMY an academy's id or exact name; SCHOOL a school's id, sourcedId or exact name.
 * Uses DATABASE_URL, or the same local database as `npm start` when it is not set.
 * Progress goes to standard error; with --json the last line of standard output is one JSON
 * object {"schools":[…],"problems":[…]}. Exit codes: 0 no problems, 1 problems (nothing
 * changed), 2 bad usage.
 */
import "./lib/env-file"; // first: the settings file, before anything reads the environment
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { audit } from "@/lib/audit/log";
import { readRosterPackage } from "@/lib/oneroster/read";
import { writeRosterPackage, zipRosterPackage } from "@/lib/oneroster/write";
import { logToStderr } from "@/lib/ops/log";
import { findAcademy, findSchool, knownRosterRows } from "@/lib/roster/data";
import { rosterSetOfAcademy } from "@/lib/roster/export";
import { applyRosterImport } from "@/lib/roster/mutations";
import { planRosterImport } from "@/lib/roster/plan";
import type { RosterPlan } from "@/lib/roster/types";
import { withCliDatabase } from "./lib/cli-database";

logToStderr();

const USAGE = `usage: npm run roster -- import PATH --academy ACADEMY [--dry-run] [--json]
       npm run roster -- export PATH --academy ACADEMY [--school SCHOOL]
PATH: a OneRoster zip, or a folder of its CSV files (export: a path ending in .zip writes a zip, else a folder)
ACADEMY: the academy's id or exact name (npm run admin -- list-academies); SCHOOL: id, sourcedId or exact name
Exit codes: 0 no problems, 1 problems (nothing changed), 2 bad usage.`;

class Usage extends Error {}
const started = performance.now();
const progress = (text: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${text}\n`);

function report(plan: RosterPlan, json: boolean, dryRun: boolean) {
  for (const s of plan.schools) {
    const c = (x: { create: number; update: number; move: number; disable: number; link: number }) => `+${x.create} ~${x.update} →${x.move} ×${x.disable} =${x.link}`;
    console.log(`${s.name} (${s.sourcedId}): students ${c(s.students)}, teachers ${c(s.teachers)}, classes ${c(s.classes)}`);
  }
  for (const p of plan.problems) console.log(`${p.file}:${p.line}:${p.column}: ${p.message}`);
  for (const p of plan.warnings ?? []) console.log(`warning: ${p.file}:${p.line}:${p.column}: ${p.message}`);
  console.log(plan.problems.length ? "nothing changed: fix the problems above" : dryRun ? "dry run: nothing changed" : "applied");
  if (json) {
    const schools = plan.schools.map(({ sourcedId, name, students, teachers, classes }) => ({ sourcedId, name, students, teachers, classes }));
    const problems = plan.problems.map(({ file, line, column, message }) => ({ file, line, column, message }));
    const warnings = (plan.warnings ?? []).map(({ file, line, column, message }) => ({ file, line, column, message }));
    console.log(JSON.stringify({ schools, problems, ...(warnings.length ? { warnings } : {}) }));
  }
  return plan.problems.length > 0 ? 1 : 0;
}

async function importSet(file: string, academyId: string, dryRun: boolean, json: boolean): Promise<number> {
  const input = statSync(file).isDirectory() ? { folder: file } : new Uint8Array(readFileSync(file));
  const read = await readRosterPackage(input, { known: await knownRosterRows(academyId), onProgress: (f, rows) => progress(`reading ${f}: ${rows} rows`) });
  if (!read.set) return report({ schools: [], problems: read.problems }, json, dryRun);
  if (dryRun) return report(await planRosterImport(academyId, read.set), json, true);
  const result = await applyRosterImport(academyId, read.set, { via: "cli", onProgress: (p) => progress(`applied ${p.school} (${p.done}/${p.total})`) });
  return report(result, json, false);
}

async function exportSet(file: string, academyId: string, schoolRef: string | undefined): Promise<number> {
  const school = schoolRef ? await findSchool(academyId, schoolRef) : null;
  if (schoolRef && !school) throw new Usage(`--school: no single school of this academy is named ${schoolRef}`);
  const set = await rosterSetOfAcademy(academyId, school?.id);
  if (!set) throw new Usage("the academy has no school to export");
  if (file.endsWith(".zip")) writeFileSync(file, zipRosterPackage(set), { mode: 0o600 });
  else {
    mkdirSync(file, { recursive: true });
    for (const [name, bytes] of Object.entries(writeRosterPackage(set))) writeFileSync(path.join(file, name), bytes, { mode: 0o600 });
  }
  await audit({ action: "roster.export", academyId, schoolId: school?.id ?? null, meta: { via: "cli", users: set.users.length, rows: set.users.length } });
  console.log(`exported ${set.orgs.filter((o) => o.type === "school").length} school(s), ${set.users.length} people, ${set.classes.length} classes to ${file}`);
  return 0;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { academy: { type: "string" }, school: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, file] = positionals;
  if ((command !== "import" && command !== "export") || !file || positionals.length !== 2) throw new Usage("give import or export and one PATH");
  if (!values.academy) throw new Usage("--academy is required");
  if (command === "import" && values.school) throw new Usage("--school is for export only");
  if (command === "export" && (values["dry-run"] || values.json)) throw new Usage("--dry-run and --json are for import only");
  if (command === "import") {
    try {
      statSync(file);
    } catch {
      throw new Usage(`${file}: no such file or folder`);
    }
  }
  return withCliDatabase(async () => {
    const academy = await findAcademy(values.academy!);
    if (!academy) throw new Usage(`--academy: no single academy has the id or name ${values.academy}`);
    progress(`academy: ${academy.name} (${academy.id})`);
    return command === "import" ? importSet(file, academy.id, values["dry-run"] ?? false, values.json ?? false) : exportSet(file, academy.id, values.school);
  });
}

main().then(
  (code) => {
    progress(`peak memory ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    process.stdout.write("", () => process.exit(code)); // after a long report has drained into the pipe
  },
  (error: unknown) => {
    if (error instanceof Usage || (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
      console.error(error.message);
      console.error(USAGE);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
