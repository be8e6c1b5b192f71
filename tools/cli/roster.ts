/**
 * `npm run roster -- import PATH --academy ACADEMY [--dry-run] [--json] [--school-kana SCHOOL=よみ]…` and
 * `npm run roster -- export PATH --academy ACADEMY [--school SCHOOL] [--profile PROFILE] [--since TIME]`:
 * OneRoster 1.2 (Japan Profile) sets for IT offices (docs/oneroster.md). PATH is a zip or a folder of CSV files;
 * ACADEMY an academy's id or exact name; SCHOOL a school's id, sourcedId or exact name.
 * Uses DATABASE_URL, or the same local database as `npm start` when it is not set.
 * Every text (progress, summary, problems, usage, errors) is Japanese (messages/ja.json
 * `RosterCli`, the problems' own messages). Standard output carries the text and, with --json,
 * as its last line one JSON object {"schools":[…],"problems":[…]}; standard error carries the
 * log (JSON lines: the audited actions) and the usage and error texts. Exit codes: 0 no
 * problems, 1 problems (nothing changed), 2 bad usage.
 */
import "../../scripts/lib/env-file"; // first: the settings file, before anything reads the environment
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTranslator } from "use-intl/core";
import ja from "@/messages/ja.json";
import { audit } from "@/platform/audit/log";
import { isProfileName, PROFILE_NAMES, type ProfileName } from "@/features/rostering/shared/oneroster-columns";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { writeRosterPackage, zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { logToStderr } from "@/platform/ops/log";
import { findAcademy, findSchool, knownRosterRows } from "@/features/rostering/server/queries";
import { rosterSetOfAcademy, type ExportOptions } from "@/features/rostering/server/export";
import { applyRosterImport } from "@/features/rostering/server/commands";
import { planRosterImport } from "@/features/rostering/server/plan";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import type { Counts, RosterPlan } from "@/features/rostering/shared/types";
import { kana } from "@/features/people/shared/schema";
import { withCliDatabase } from "./database";

logToStderr();

const t = createTranslator({ locale: "ja", messages: ja, namespace: "RosterCli" });

class Usage extends Error {}
const started = performance.now();
const progress = (text: string) =>
  console.log(`${t("seconds", { seconds: ((performance.now() - started) / 1000).toFixed(1) })} ${text}`);

/** Peak memory so far (the bench reads it), printed before the summary so the JSON stays the last line. */
const peakMemory = () => progress(t("peakMemory", { mb: Math.round(process.resourceUsage().maxRSS / 1024) }));

type SchoolCounts = Pick<
  RosterPlan["schools"][number],
  "sourcedId" | "name" | "newSchool" | "students" | "teachers" | "classes"
>;
const counts = (c: Counts) => t("counts", c);
const schoolJson = ({ sourcedId, name, newSchool, students, teachers, classes }: SchoolCounts) => ({
  sourcedId,
  name,
  newSchool,
  students,
  teachers,
  classes,
});

/** The summary, the problems and the closing line in Japanese; with --json the one JSON object last. */
function report(
  plan: { schools: SchoolCounts[]; problems: RosterPlan["problems"]; warnings?: RosterPlan["warnings"] },
  json: boolean,
  dryRun: boolean,
) {
  peakMemory();
  for (const s of plan.schools) {
    console.log(
      t("school", {
        name: s.name,
        sourcedId: s.sourcedId,
        newSchool: String(s.newSchool),
        students: counts(s.students),
        teachers: counts(s.teachers),
        classes: counts(s.classes),
      }),
    );
  }
  const created = plan.schools.filter((s) => s.newSchool).length;
  if (created) console.log(t("newSchools", { count: created }));
  for (const p of plan.problems) console.log(`${p.file}:${p.line}:${p.column}: ${p.message}`);
  for (const p of plan.warnings ?? [])
    console.log(t("warning", { where: `${p.file}:${p.line}:${p.column}`, message: p.message }));
  console.log(
    plan.problems.length
      ? t("problemsEnd", { count: plan.problems.length })
      : dryRun
        ? t("dryRunEnd")
        : t("appliedEnd"),
  );
  if (json) {
    const problems = plan.problems.map(({ file, line, column, code, message }) => ({
      file,
      line,
      column,
      code,
      message,
    }));
    const warnings = (plan.warnings ?? []).map(({ file, line, column, code, message }) => ({
      file,
      line,
      column,
      code,
      message,
    }));
    console.log(
      JSON.stringify({ schools: plan.schools.map(schoolJson), problems, ...(warnings.length ? { warnings } : {}) }),
    );
  }
  return plan.problems.length > 0 ? 1 : 0;
}

/** `--school-kana SCHOOL=よみ`: readings by the school's sourcedId (given to the schools the set creates). */
function schoolReadings(values: string[], set: RosterSet): Map<string, string> {
  const readings = new Map<string, string>();
  for (const value of values) {
    const at = value.lastIndexOf("=");
    const reading = kana.safeParse(value.slice(at + 1));
    if (at <= 0 || !reading.success || !reading.data) throw new Usage(t("badSchoolKana", { value }));
    const ref = value.slice(0, at).trim();
    const school = set.orgs.find((o) => o.type === "school" && (o.sourcedId === ref.toLowerCase() || o.name === ref));
    if (!school) throw new Usage(t("schoolKanaNotInSet", { value }));
    readings.set(school.sourcedId, reading.data);
  }
  return readings;
}

async function importSet(
  file: string,
  academyId: string,
  options: { dryRun: boolean; json: boolean; schoolKana: string[] },
): Promise<number> {
  const { dryRun, json } = options;
  const input = statSync(file).isDirectory() ? { folder: file } : new Uint8Array(readFileSync(file));
  const read = await readRosterPackage(input, {
    known: await knownRosterRows(academyId),
    onProgress: (f, rows) => progress(t("reading", { file: f, rows })),
  });
  if (!read.set) return report({ schools: [], problems: read.problems }, json, dryRun);
  const schoolKana = schoolReadings(options.schoolKana, read.set);
  if (dryRun) return report(await planRosterImport(academyId, read.set), json, true);
  const applied: SchoolCounts[] = [];
  let total = 0;
  try {
    const result = await applyRosterImport(academyId, read.set, {
      via: "cli",
      schoolKana,
      onProgress: (p) => {
        applied.push(p.summary);
        total = p.total;
        progress(t("applied", { school: p.school, done: p.done, total: p.total }));
      },
    });
    return report(result, json, false);
  } catch (error) {
    // a school's transaction failed (a change between the plan and the write): the schools before it stay applied
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ").trim(); // one line
    peakMemory();
    console.log(t("failed", { done: applied.length, total, error: message }));
    if (json) console.log(JSON.stringify({ schools: applied.map(schoolJson), problems: [], error: message }));
    return 1;
  }
}

async function exportSet(
  file: string,
  academyId: string,
  schoolRef: string | undefined,
  options: Omit<ExportOptions, "schoolId">,
): Promise<number> {
  const school = schoolRef ? await findSchool(academyId, schoolRef) : null;
  if (schoolRef && !school) throw new Usage(t("noSchool", { value: schoolRef }));
  const set = await rosterSetOfAcademy(academyId, { ...options, schoolId: school?.id });
  if (!set) throw new Usage(t("nothingToExport"));
  if (file.endsWith(".zip")) writeFileSync(file, zipRosterPackage(set), { mode: 0o600 });
  else {
    mkdirSync(file, { recursive: true });
    for (const [name, bytes] of Object.entries(writeRosterPackage(set)))
      writeFileSync(path.join(file, name), bytes, { mode: 0o600 });
  }
  await audit({
    action: "roster.export",
    academyId,
    schoolId: school?.id ?? null,
    meta: { via: "cli", users: set.users.length, rows: set.users.length },
  });
  peakMemory();
  console.log(
    t("exported", {
      schools: set.orgs.filter((o) => o.type === "school").length,
      people: set.users.length,
      classes: set.classes.length,
      path: file,
    }),
  );
  return 0;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      academy: { type: "string" },
      school: { type: "string" },
      profile: { type: "string" },
      since: { type: "string" },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      "school-kana": { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(t("usage", { profiles: PROFILE_NAMES.join(", ") }));
    return 0;
  }
  const [command, file] = positionals;
  if ((command !== "import" && command !== "export") || !file || positionals.length !== 2)
    throw new Usage(t("badCommand"));
  if (!values.academy) throw new Usage(t("academyRequired"));
  if (command === "import" && (values.school || values.profile || values.since)) throw new Usage(t("exportOnly"));
  if (command === "export" && (values["dry-run"] || values.json || values["school-kana"]))
    throw new Usage(t("importOnly"));
  if (values.profile !== undefined && !isProfileName(values.profile))
    throw new Usage(t("badProfile", { profiles: PROFILE_NAMES.join(", ") }));
  const since = values.since === undefined ? undefined : new Date(values.since);
  if (since && Number.isNaN(since.getTime())) throw new Usage(t("badSince"));
  if (command === "import") {
    try {
      statSync(file);
    } catch {
      throw new Usage(t("noSuchPath", { path: file }));
    }
  }
  return withCliDatabase(async () => {
    const academy = await findAcademy(values.academy!);
    if (!academy) throw new Usage(t("noAcademy", { value: values.academy! }));
    progress(t("academy", { name: academy.name, id: academy.id }));
    return command === "import"
      ? importSet(file, academy.id, {
          dryRun: values["dry-run"] ?? false,
          json: values.json ?? false,
          schoolKana: values["school-kana"] ?? [],
        })
      : exportSet(file, academy.id, values.school, { profile: values.profile as ProfileName | undefined, since });
  });
}

main().then(
  (code) => {
    process.stdout.write("", () => process.exit(code)); // after a long report has drained into the pipe
  },
  (error: unknown) => {
    if (
      error instanceof Usage ||
      (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      console.error(t("error", { message: error.message }));
      console.error(t("usage", { profiles: PROFILE_NAMES.join(", ") }));
      process.exit(2);
    }
    console.error(t("error", { message: error instanceof Error ? error.message : String(error) }));
    process.exit(1);
  },
);
