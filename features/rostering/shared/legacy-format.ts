import { z } from "zod";
import { notFormula } from "@/features/people/shared/schema";
import { parseTimestamp } from "@/platform/time";
import { FORMULA_WORDS } from "@/platform/names/person-name";

/**
 * Reading a JSON export of the legacy document database (docs/requirements.md §3):
 *
 *   users/{uid}                               email, groupId, groupType, role, createdAt, updatedAt
 *   schools/{groupId}/students/{userId}       email, name, groupName, nickName, password, counterbalanceGroupId, …
 *   schools/{groupId}/teachers/{userId}       email, name, groupName, nickName, password, …
 *   academies/{groupId}/managers/{userId}     email, name, groupName, nickName, password, …
 *
 * Documents are keyed by id. Sub-collections sit under `__collections__`
 * (the layout of the common export tools, which also wrap typed values as
 * `{ "__datatype__": "timestamp", "value": … }`), or are nested plainly under
 * the document (`schools.s1.students.u1`). Nothing here touches a database:
 * the result is either the documents, typed, or every problem with the path
 * of its document.
 */

export type LegacyRole = "student" | "teacher" | "manager";

export interface LegacyProblem {
  path: string;
  message: string;
}

export interface LegacyUserDoc {
  id: string;
  path: string;
  email: string | null;
  role: LegacyRole;
  groupType: "school" | "academy";
  groupId: string;
  createdAt: unknown;
  updatedAt: unknown;
}

export interface LegacyProfileDoc {
  id: string;
  path: string;
  email: string | null;
  name: string | null;
  groupName: string | null;
  nickName: string | null;
  /** In clear in the legacy data: hashed on import, never written, logged or printed. */
  password: string | null;
  counterbalanceGroupId: string | null;
  grade: number | null;
  className: string | null;
  number: number | null;
  createdAt: unknown;
  updatedAt: unknown;
}

export interface LegacyGroupDoc {
  id: string;
  path: string;
  name: string | null;
  nameKana: string | null;
  createdAt: unknown;
  /** role → user id → profile document */
  members: Map<LegacyRole, Map<string, LegacyProfileDoc>>;
}

export interface LegacyExport {
  users: LegacyUserDoc[];
  schools: Map<string, LegacyGroupDoc>;
  academies: Map<string, LegacyGroupDoc>;
  /** Top-level collections the importer does not read (reported, not an error). */
  ignoredCollections: string[];
}

export type LegacyRead = { ok: true; data: LegacyExport } | { ok: false; problems: LegacyProblem[] };

const COLLECTIONS = "__collections__";
const SUB_COLLECTIONS = { schools: ["students", "teachers"], academies: ["managers"] } as const;
const ROLE_OF: Record<string, LegacyRole> = { students: "student", teachers: "teacher", managers: "manager" };

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Keys that are never data: JSON.parse makes `__proto__` an ordinary own key,
 * but copying it with `out[key] = …` would set the copy's prototype (and its
 * fields would then be read from there). Such fields are dropped, and a
 * document with such an id is refused.
 */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** The own entries of an object that may be data (never its prototype's, never a reserved key). */
const dataEntries = (value: Obj): [string, unknown][] => Object.entries(value).filter(([k]) => !RESERVED_KEYS.has(k));
const own = (value: Obj, key: string): unknown => (Object.hasOwn(value, key) ? value[key] : undefined);

/** Nesting of a real export is about ten levels; anything past this is refused (the reader below recurses). */
export const MAX_DEPTH = 32;

/** Whether `value` nests deeper than `max` levels (iterative: a hostile depth cannot overflow the stack here). */
function tooDeep(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Replaces the export tools' typed wrappers (`{ __datatype__, value }`) by their value; reserved keys are left out. */
function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  if (!isObject(value)) return value;
  if (typeof own(value, "__datatype__") === "string" && Object.hasOwn(value, "value")) return unwrap(value.value);
  const out: Obj = {};
  for (const [k, v] of dataEntries(value)) out[k] = unwrap(v);
  return out;
}

const timestamp = z
  .unknown()
  .superRefine((v, ctx) => {
    if (v === undefined || v === null || v === "") return;
    if (parseTimestamp(v) === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "is not a timestamp (epoch milliseconds, an ISO date, or { seconds, nanoseconds })",
      });
    }
  })
  .optional();

/** Optional text: trimmed; empty → null. */
const text = (max: number) =>
  z
    .string({ error: "must be text" })
    .trim()
    .max(max, { error: `is longer than ${max} characters` })
    .nullish()
    .transform((v) => v || null);
/** A name, reading or nickname: optional text that a spreadsheet would not run as a formula. */
const nameText = (max: number) =>
  notFormula(
    z
      .string({ error: "must be text" })
      .trim()
      .max(max, { error: `is longer than ${max} characters` }),
    FORMULA_WORDS,
  )
    .nullish()
    .transform((v) => v || null);

const email = z
  .string({ error: "must be text" })
  .trim()
  .toLowerCase()
  .nullish()
  .transform((v) => v || null)
  .pipe(z.email({ error: "is not an e-mail address" }).max(254).nullable());

const userDoc = z
  .object({
    email,
    groupId: z
      .string({ error: "is missing (the id of the user's school or academy)" })
      .trim()
      .min(1, { error: "is empty" }),
    groupType: z.enum(["school", "academy"], { error: "must be school or academy" }),
    role: z.enum(["student", "teacher", "manager"], { error: "must be student, teacher or manager" }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .superRefine((u, ctx) => {
    const expected = u.role === "manager" ? "academy" : "school";
    if (u.groupType !== expected) {
      ctx.addIssue({ code: "custom", path: ["groupType"], message: `must be ${expected} for a ${u.role}` });
    }
  });

const wholeNumber = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, { error: "must be a whole number" })], {
      error: "must be a whole number",
    })
    .nullish()
    .transform((v) => (v === null || v === undefined || v === "" ? null : Number(v)))
    .pipe(z.number().int({ error: "must be a whole number" }).min(min).max(max).nullable());

const profileDoc = z.object({
  email,
  name: nameText(100),
  groupName: text(200),
  nickName: nameText(50),
  password: z
    .string({ error: "must be text" })
    .max(1024, { error: "is longer than 1024 characters" })
    .nullish()
    .transform((v) => (v ? v : null)),
  counterbalanceGroupId: z
    .union([z.string(), z.number()], { error: "must be text or a number" })
    .nullish()
    .transform((v) => (v === null || v === undefined || String(v).trim() === "" ? null : String(v).trim())),
  // not in docs/requirements.md's layout, read when an export has them
  grade: wholeNumber(1, 12),
  className: text(10),
  number: wholeNumber(1, 99),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const groupDoc = z.object({
  name: nameText(100),
  nameKana: nameText(100),
  createdAt: timestamp,
});

function problemsOf(path: string, error: z.ZodError): LegacyProblem[] {
  return error.issues.map((issue) => ({
    path,
    message: issue.path.length > 0 ? `${issue.path.join(".")} ${issue.message}` : issue.message,
  }));
}

/** The documents of a collection node, or a problem when it is not an object of documents. */
function documentsOf(node: unknown, path: string, problems: LegacyProblem[]): [string, Obj][] {
  if (node === undefined || node === null) return [];
  if (!isObject(node)) {
    problems.push({ path, message: "is not a collection (an object of documents keyed by id)" });
    return [];
  }
  const docs: [string, Obj][] = [];
  for (const [id, doc] of Object.entries(node)) {
    if (RESERVED_KEYS.has(id))
      problems.push({
        path: `${path}/${id}`,
        message: "has a reserved id (__proto__, constructor and prototype are not document ids)",
      });
    else if (id.trim() === "" || id.includes("/"))
      problems.push({ path: `${path}/${id}`, message: "has an empty id or one with a slash" });
    else if (!isObject(doc))
      problems.push({ path: `${path}/${id}`, message: "is not a document (an object of fields)" });
    else docs.push([id, doc]);
  }
  return docs;
}

/** A document's own fields and its sub-collections (under `__collections__`, or the known names nested plainly). */
function split(doc: Obj, subNames: readonly string[]): { fields: Obj; subs: Obj } {
  const nested = own(doc, COLLECTIONS);
  const rest = Object.fromEntries(dataEntries(doc).filter(([k]) => k !== COLLECTIONS));
  if (isObject(nested)) return { fields: rest, subs: nested };
  const fields: Obj = {};
  const subs: Obj = {};
  for (const [k, v] of Object.entries(rest)) {
    if (subNames.includes(k) && isObject(v)) subs[k] = v;
    else fields[k] = v;
  }
  return { fields, subs };
}

function readGroups(
  kind: "schools" | "academies",
  node: unknown,
  problems: LegacyProblem[],
): Map<string, LegacyGroupDoc> {
  const groups = new Map<string, LegacyGroupDoc>();
  for (const [id, doc] of documentsOf(node, kind, problems)) {
    const path = `${kind}/${id}`;
    const { fields, subs } = split(doc, SUB_COLLECTIONS[kind]);
    const parsed = groupDoc.safeParse(unwrap(fields));
    if (!parsed.success) problems.push(...problemsOf(path, parsed.error));
    const members = new Map<LegacyRole, Map<string, LegacyProfileDoc>>();
    for (const sub of SUB_COLLECTIONS[kind]) {
      const role = ROLE_OF[sub]!;
      const profiles = new Map<string, LegacyProfileDoc>();
      for (const [uid, profile] of documentsOf(subs[sub], `${path}/${sub}`, problems)) {
        const profilePath = `${path}/${sub}/${uid}`;
        const profileFields = Object.fromEntries(dataEntries(profile).filter(([k]) => k !== COLLECTIONS));
        const p = profileDoc.safeParse(unwrap(profileFields));
        if (!p.success) problems.push(...problemsOf(profilePath, p.error));
        else
          profiles.set(uid, {
            id: uid,
            path: profilePath,
            ...p.data,
            createdAt: p.data.createdAt,
            updatedAt: p.data.updatedAt,
          });
      }
      members.set(role, profiles);
    }
    groups.set(id, {
      id,
      path,
      name: parsed.success ? parsed.data.name : null,
      nameKana: parsed.success ? parsed.data.nameKana : null,
      createdAt: parsed.success ? parsed.data.createdAt : undefined,
      members,
    });
  }
  return groups;
}

/** Reads a parsed JSON export; every problem is reported with the path of its document. */
export function readLegacyExport(json: unknown): LegacyRead {
  const problems: LegacyProblem[] = [];
  if (!isObject(json))
    return { ok: false, problems: [{ path: "(file)", message: "is not a JSON object of collections" }] };
  if (tooDeep(json, MAX_DEPTH))
    return {
      ok: false,
      problems: [
        { path: "(file)", message: `is nested deeper than ${MAX_DEPTH} levels: not an export of the legacy product` },
      ],
    };
  const nested = own(json, COLLECTIONS);
  const root = isObject(nested) ? nested : json;
  if (!Object.hasOwn(root, "users"))
    return { ok: false, problems: [{ path: "users", message: "is missing: the export has no users collection" }] };

  const users: LegacyUserDoc[] = [];
  for (const [id, doc] of documentsOf(own(root, "users"), "users", problems)) {
    const path = `users/${id}`;
    const fields = Object.fromEntries(dataEntries(doc).filter(([k]) => k !== COLLECTIONS));
    const parsed = userDoc.safeParse(unwrap(fields));
    if (!parsed.success) problems.push(...problemsOf(path, parsed.error));
    else users.push({ id, path, ...parsed.data, createdAt: parsed.data.createdAt, updatedAt: parsed.data.updatedAt });
  }
  const schools = readGroups("schools", own(root, "schools"), problems);
  const academies = readGroups("academies", own(root, "academies"), problems);
  const ignoredCollections = Object.keys(root).filter((k) => !["users", "schools", "academies"].includes(k));
  if (problems.length > 0)
    return { ok: false, problems: problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  users.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ok: true, data: { users, schools, academies, ignoredCollections } };
}

/** Reads a school → academy map file: an object of legacy school id → academy id (legacy, or a Manabiya academy's id). */
export function readSchoolAcademyMap(
  json: unknown,
): { ok: true; map: Map<string, string> } | { ok: false; problems: LegacyProblem[] } {
  const parsed = z.record(z.string().trim().min(1), z.string().trim().min(1)).safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      problems: [
        { path: "(school-academy map)", message: "must be a JSON object of school id → academy id (both text)" },
      ],
    };
  }
  return { ok: true, map: new Map(Object.entries(parsed.data)) };
}
