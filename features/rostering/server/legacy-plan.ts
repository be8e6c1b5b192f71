import { randomUUID } from "node:crypto";
import { readTimestamp } from "@/platform/time";
import type {
  LegacyExport,
  LegacyGroupDoc,
  LegacyProblem,
  LegacyProfileDoc,
  LegacyRole,
} from "../shared/legacy-format";

/**
 * From the legacy documents and what Manabiya already holds to a plan: for
 * every academy, school and person, create / update (which fields) /
 * unchanged / skip (why). Pure: the database is read before (features/rostering/server/legacy-import.ts)
 * and written after, so a dry run and a real run see the same plan.
 *
 * Rules (docs/requirements.md §3, docs/adr/0033-legacy-import.md):
 * - The users document decides role and group; the role document in the
 *   matching collection adds name and nickname. Without it the person is
 *   still imported with the basic fields (the merged-profile rule).
 * - A person is matched on legacy id, then e-mail. The first import of a
 *   person already in Manabiya (same e-mail) links them and fills only
 *   what is empty there.
 * - A re-run applies only the fields that changed in the legacy data since
 *   the last import (legacy_records keeps that snapshot): re-running the
 *   same export changes nothing, even after edits in Manabiya, and someone
 *   deleted in Manabiya is not created again. A password or sign-in code
 *   already set in Manabiya is never replaced.
 */

export type Kind = "academy" | "school" | "user";
export type Action = "create" | "update" | "unchanged" | "skip";

/** What legacy_records keeps per person: never the password, only whether there was one. */
export interface UserSnapshot {
  role: LegacyRole;
  group: string;
  email: string | null;
  name: string | null;
  nickname: string | null;
  counterbalanceGroup: string | null;
  grade: number | null;
  className: string | null;
  number: number | null;
  hasPassword: boolean;
}

export interface GroupSnapshot {
  name: string;
  academy?: string;
}

export interface ExistingUser {
  id: string;
  legacyId: string | null;
  email: string | null;
  role: LegacyRole;
  schoolId: string | null;
  academyId: string | null;
  name: string | null;
  nickname: string | null;
  hasPassword: boolean;
  hasDetails: boolean;
  grade: number | null;
  className: string | null;
  number: number | null;
  counterbalanceGroup: string | null;
  /** Sign-in code rows ever issued (live or revoked). */
  codes: number;
}

export interface Existing {
  academiesByLegacy: Map<string, { id: string; name: string }>;
  academiesById: Map<string, { id: string }>;
  schoolsByLegacy: Map<string, { id: string; academyId: string; name: string }>;
  usersByLegacy: Map<string, ExistingUser>;
  usersByEmail: Map<string, ExistingUser>;
  records: Map<string, { targetId: string; snapshot: unknown }>;
}

export interface GroupPlan {
  kind: "academy" | "school";
  legacyId: string;
  path: string;
  action: Action;
  id: string;
  changes: string[];
  reason?: string;
  name: string;
  nameKana: string;
  academyId?: string;
  createdAt: Date;
  snapshot: GroupSnapshot;
  writeRecord: boolean;
}

export interface UserPlan {
  legacyId: string;
  path: string;
  role: LegacyRole;
  action: Action;
  id: string;
  changes: string[];
  reason?: string;
  /** The person's row as it should be written (create), or only the fields to set (update). */
  user: {
    email?: string | null;
    name?: string | null;
    nickname?: string | null;
    schoolId?: string | null;
    academyId?: string | null;
    legacyId?: string;
  };
  details?: {
    grade?: number | null;
    className?: string | null;
    number?: number | null;
    counterbalanceGroup?: string | null;
  };
  createDetails: boolean;
  setPassword: boolean;
  issueCode: boolean;
  createdAt: Date;
  updatedAt: Date;
  snapshot: UserSnapshot;
  writeRecord: boolean;
}

export interface Plan {
  academies: GroupPlan[];
  schools: GroupPlan[];
  users: UserPlan[];
  /** Role documents that no users document uses, people whose group is skipped, duplicates. */
  skipped: { path: string; reason: string }[];
  withoutPassword: string[];
  profileMissing: string[];
  groupsNotImported: { path: string; value: string }[];
  namedById: string[];
  notes: string[];
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; problems: LegacyProblem[] };

export const recordKey = (kind: Kind, legacyId: string) => `${kind}:${legacyId}`;

/** Manabiya's counterbalance groups are A, B, … (one to three capital letters). */
const GROUP_PATTERN = /^[A-Z]{1,3}$/;
/** A Manabiya id (for the map's academy ids, which may name an academy already in Manabiya). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Person {
  legacyId: string;
  path: string;
  role: LegacyRole;
  group: string;
  email: string | null;
  profile: LegacyProfileDoc | null;
  createdAt: unknown;
  updatedAt: unknown;
}

function mostCommon(values: (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [v, n] of counts) {
    if (n > bestCount) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}

/** Whether two values differ (JSON values: strings, numbers, booleans, null, arrays of them). */
const differs = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);

/** Whether two snapshots differ in any of `keys` (key by key: jsonb does not keep key order). */
function snapshotDiffers<T extends object>(old: T, next: T, keys: (keyof T)[]): boolean {
  return keys.some((k) => differs(old[k], next[k]));
}
const USER_KEYS: (keyof UserSnapshot)[] = [
  "role",
  "group",
  "email",
  "name",
  "nickname",
  "counterbalanceGroup",
  "grade",
  "className",
  "number",
  "hasPassword",
];
const GROUP_KEYS: (keyof GroupSnapshot)[] = ["name", "academy"];

/** One planning run: what it reads, and the lists it fills as it goes. */
interface Planning {
  data: LegacyExport;
  existing: Existing;
  options: { schoolAcademy?: Map<string, string>; now: Date };
  now: () => Date;
  skipped: Plan["skipped"];
  notes: string[];
  namedById: string[];
}

/** The people: users documents merged with their role documents (a second person with an e-mail is skipped). */
function mergePeople({ data, skipped }: Planning): { people: Person[]; used: Set<string> } {
  const used = new Set<string>();
  const people: Person[] = [];
  const byEmail = new Map<string, string>();
  for (const u of data.users) {
    const groups = u.role === "manager" ? data.academies : data.schools;
    const profile = groups.get(u.groupId)?.members.get(u.role)?.get(u.id) ?? null;
    if (profile) used.add(profile.path);
    const email = u.email ?? profile?.email ?? null;
    if (email) {
      const first = byEmail.get(email);
      if (first) {
        skipped.push({ path: u.path, reason: `same e-mail as ${first}` });
        continue;
      }
      byEmail.set(email, u.path);
    }
    people.push({
      legacyId: u.id,
      path: u.path,
      role: u.role,
      group: u.groupId,
      email,
      profile,
      createdAt: u.createdAt ?? profile?.createdAt,
      updatedAt: u.updatedAt ?? profile?.updatedAt,
    });
  }
  return { people, used };
}

/** The role documents no person uses, skipped with the reason. */
function skipUnusedProfiles({ data, skipped }: Planning, used: Set<string>): void {
  const usersById = new Map(data.users.map((u) => [u.id, u]));
  for (const groups of [data.schools, data.academies]) {
    for (const group of groups.values()) {
      for (const [role, profiles] of group.members) {
        for (const profile of profiles.values()) {
          if (used.has(profile.path)) continue;
          const u = usersById.get(profile.id);
          skipped.push({
            path: profile.path,
            reason: u
              ? `not used: ${u.path} makes this person a ${u.role} of ${u.role === "manager" ? "academies" : "schools"}/${u.groupId}`
              : `no users document (users/${profile.id}): the legacy product could not sign this ${role} in`,
          });
        }
      }
    }
  }
}

/** The legacy ids of the academies or schools: the documents plus every group a person refers to, sorted. */
function groupIds(data: LegacyExport, people: Person[], kind: "school" | "academy"): string[] {
  const docs = kind === "school" ? data.schools : data.academies;
  const ids = new Set(docs.keys());
  for (const p of people) if ((p.role === "manager") === (kind === "academy")) ids.add(p.group);
  return [...ids].sort();
}

/** The groupName of every role document filed under the group (a group without a document has none). */
const memberNames = (doc: LegacyGroupDoc | undefined) =>
  [...(doc?.members.values() ?? [])].flatMap((profiles) => [...profiles.values()].map((p) => p.groupName));

function planGroup(
  { data, existing, now, namedById }: Planning,
  kind: "school" | "academy",
  legacyId: string,
  academyId?: string,
  academyRef?: string,
): GroupPlan {
  const doc = (kind === "school" ? data.schools : data.academies).get(legacyId);
  const path = `${kind === "school" ? "schools" : "academies"}/${legacyId}`;
  let name = doc?.name ?? mostCommon(memberNames(doc));
  if (!name) {
    name = legacyId;
    namedById.push(path);
  }
  const snapshot: GroupSnapshot = { name, ...(academyRef ? { academy: academyRef } : {}) };
  const base = {
    kind,
    legacyId,
    path,
    name,
    nameKana: doc?.nameKana ?? "",
    createdAt: readTimestamp(doc?.createdAt, now),
    snapshot,
    changes: [] as string[],
  };
  const record = existing.records.get(recordKey(kind, legacyId));
  const current = kind === "school" ? existing.schoolsByLegacy.get(legacyId) : existing.academiesByLegacy.get(legacyId);
  if (!current) {
    if (record)
      return {
        ...base,
        action: "skip",
        id: record.targetId,
        reason: `deleted in Manabiya after an earlier import: not created again`,
        writeRecord: false,
      };
    return { ...base, action: "create", id: randomUUID(), academyId, writeRecord: true };
  }
  const old = (record?.snapshot ?? null) as GroupSnapshot | null;
  // the academy a school was first linked to stays its recorded link (the import does not move schools)
  if (kind === "school") snapshot.academy = old?.academy ?? academyRef;
  if (snapshot.academy === undefined) delete snapshot.academy;
  const changes: string[] = [];
  if (old && differs(old.name, name) && current.name !== name) changes.push("name");
  const writeRecord = !old || snapshotDiffers(old, snapshot, GROUP_KEYS);
  return { ...base, action: changes.length > 0 ? "update" : "unchanged", id: current.id, changes, writeRecord };
}

type SchoolAcademy = { ok: true; academyId?: string; academyRef?: string } | { ok: false; problem: LegacyProblem };

/**
 * The academy of a school: the one the --school-academy map names, else (a school new to Manabiya)
 * the export's only academy; a problem when there is none.
 */
function academyOfSchool(
  { existing, options }: Planning,
  legacyId: string,
  isNew: boolean,
  academies: GroupPlan[],
  academyPlan: Map<string, GroupPlan>,
): SchoolAcademy {
  const mapped = options.schoolAcademy?.get(legacyId);
  if (mapped) {
    const inExport = academyPlan.get(mapped);
    const byLegacy = existing.academiesByLegacy.get(mapped);
    const byId = UUID_PATTERN.test(mapped) ? existing.academiesById.get(mapped.toLowerCase()) : undefined;
    const academyId = inExport && inExport.action !== "skip" ? inExport.id : (byLegacy?.id ?? byId?.id);
    if (!academyId) {
      return {
        ok: false,
        problem: {
          path: `schools/${legacyId}`,
          message: `the --school-academy map links it to "${mapped}", which is neither an academy of the export nor one in Manabiya`,
        },
      };
    }
    return { ok: true, academyId, academyRef: mapped };
  }
  if (!isNew) return { ok: true };
  const usable = academies.filter((a) => a.action !== "skip");
  if (academies.length === 1 && usable.length === 1) {
    return { ok: true, academyId: usable[0]!.id, academyRef: usable[0]!.legacyId };
  }
  return {
    ok: false,
    problem: {
      path: `schools/${legacyId}`,
      message: `has no academy: the export has ${academies.length} academies, so give each school's academy in --school-academy <map.json>`,
    },
  };
}

/** The schools, each with its academy; the problems of those without one. */
function planSchools(
  planning: Planning,
  people: Person[],
  academies: GroupPlan[],
  academyPlan: Map<string, GroupPlan>,
): { schools: GroupPlan[]; problems: LegacyProblem[] } {
  const schools: GroupPlan[] = [];
  const problems: LegacyProblem[] = [];
  for (const legacyId of groupIds(planning.data, people, "school")) {
    const current = planning.existing.schoolsByLegacy.get(legacyId);
    const academy = academyOfSchool(planning, legacyId, !current, academies, academyPlan);
    if (!academy.ok) {
      problems.push(academy.problem);
      continue;
    }
    const { academyId, academyRef } = academy;
    const plan = planGroup(planning, "school", legacyId, current ? undefined : academyId, academyRef);
    if (current && academyId && academyId !== current.academyId)
      planning.notes.push(`${plan.path} stays in its current academy (the import does not move schools)`);
    schools.push(plan);
  }
  return { schools, problems };
}

/** The lists of people the report names: without a password, without a role document, with a group not imported. */
interface PeopleNotes {
  withoutPassword: string[];
  profileMissing: string[];
  groupsNotImported: Plan["groupsNotImported"];
}

/** A student's counterbalance group as Manabiya writes it (A, B, …), or null; one it cannot take is noted. */
function counterbalanceOf(p: Person, profile: LegacyProfileDoc | null, lists: PeopleNotes): string | null {
  if (p.role !== "student" || !profile?.counterbalanceGroupId) return null;
  const upper = profile.counterbalanceGroupId.toUpperCase();
  if (GROUP_PATTERN.test(upper)) return upper;
  lists.groupsNotImported.push({ path: profile.path, value: profile.counterbalanceGroupId });
  return null;
}

function personSnapshot(
  p: Person,
  counterbalanceGroup: string | null,
  password: string | null,
  seatComplete: boolean,
): UserSnapshot {
  const profile = p.profile;
  const student = p.role === "student";
  return {
    role: p.role,
    group: p.group,
    email: p.email,
    name: profile?.name ?? null,
    nickname: profile?.nickName ?? null,
    counterbalanceGroup,
    grade: student && seatComplete ? profile!.grade : null,
    className: student && seatComplete ? profile!.className : null,
    number: student && seatComplete ? profile!.number : null,
    hasPassword: password !== null,
  };
}

type PersonBase = ReturnType<typeof personBase>;

/** The fields every plan of a person has, whatever is done with them. */
function personBase(p: Person, snapshot: UserSnapshot, now: () => Date) {
  return {
    legacyId: p.legacyId,
    path: p.path,
    role: p.role,
    changes: [] as string[],
    createDetails: false,
    setPassword: false,
    issueCode: false,
    createdAt: readTimestamp(p.createdAt, now),
    updatedAt: readTimestamp(p.updatedAt, now),
    snapshot,
  };
}

const skipPerson = (base: PersonBase, reason: string, id = ""): UserPlan => ({
  ...base,
  action: "skip",
  id,
  reason,
  user: {},
  writeRecord: false,
});

/** A person of the export and the account in Manabiya they match. */
interface Match {
  p: Person;
  target: ExistingUser;
  snapshot: UserSnapshot;
  /** Whether the account is already in the person's school (academy for a manager). */
  sameGroup: boolean;
}

/** What an update sets: the person's fields, the student's details, and the names of the changes. */
interface PersonFill {
  user: UserPlan["user"];
  details: NonNullable<UserPlan["details"]>;
  changes: string[];
}

/**
 * First import of someone Manabiya already has (by e-mail, or an earlier run's row without a snapshot):
 * link, fill what is empty. The reason when they cannot be linked, else null.
 */
function fillLinked(
  { p, target, snapshot, sameGroup }: Match,
  seatComplete: boolean,
  { user, details, changes }: PersonFill,
): string | null {
  if (target.role !== p.role) return `e-mail ${p.email} belongs to a ${target.role} in Manabiya, not a ${p.role}`;
  if (!sameGroup)
    return `e-mail ${p.email} belongs to someone of another ${p.role === "manager" ? "academy" : "school"} in Manabiya`;
  if (!target.legacyId) {
    user.legacyId = p.legacyId;
    changes.push("linked by e-mail");
  }
  if (!target.name && snapshot.name) {
    user.name = snapshot.name;
    changes.push("name");
  }
  if (!target.nickname && snapshot.nickname) {
    user.nickname = snapshot.nickname;
    changes.push("nickname");
  }
  if (p.role === "student") {
    if (target.grade === null && seatComplete) {
      Object.assign(details, { grade: snapshot.grade, className: snapshot.className, number: snapshot.number });
      changes.push("class and number");
    }
    if (!target.counterbalanceGroup && snapshot.counterbalanceGroup) {
      details.counterbalanceGroup = snapshot.counterbalanceGroup;
      changes.push("counterbalance group");
    }
  }
  return null;
}

/** A student's seat and counterbalance group changed since the last import and not already as the export has them. */
function fillChangedDetails(
  target: ExistingUser,
  old: UserSnapshot,
  snapshot: UserSnapshot,
  { details, changes }: PersonFill,
): void {
  const seatChanged = differs(
    [old.grade, old.className, old.number],
    [snapshot.grade, snapshot.className, snapshot.number],
  );
  if (
    seatChanged &&
    differs([target.grade, target.className, target.number], [snapshot.grade, snapshot.className, snapshot.number])
  ) {
    Object.assign(details, { grade: snapshot.grade, className: snapshot.className, number: snapshot.number });
    changes.push("class and number");
  }
  if (
    differs(old.counterbalanceGroup, snapshot.counterbalanceGroup) &&
    target.counterbalanceGroup !== snapshot.counterbalanceGroup
  ) {
    details.counterbalanceGroup = snapshot.counterbalanceGroup;
    changes.push("counterbalance group");
  }
}

/**
 * A re-run: the fields that changed in the legacy data since the last import, where Manabiya does not
 * already have them. The reason when a change cannot be applied, else null.
 */
function fillChanged(
  existing: Existing,
  { p, target, snapshot, sameGroup }: Match,
  old: UserSnapshot,
  membership: { schoolId: string | null; academyId: string | null },
  fill: PersonFill,
): string | null {
  const { user, changes } = fill;
  if (old.role !== snapshot.role && target.role !== snapshot.role)
    return `role changed in the legacy data (${old.role} → ${snapshot.role}): change it in Manabiya by hand`;
  if (differs(old.group, snapshot.group) && !sameGroup) {
    Object.assign(user, membership);
    changes.push(p.role === "manager" ? "academy" : "school");
  }
  if (differs(old.email, snapshot.email) && target.email !== snapshot.email) {
    const holder = snapshot.email ? existing.usersByEmail.get(snapshot.email) : undefined;
    if (holder && holder.id !== target.id) return `new e-mail ${snapshot.email} belongs to another account in Manabiya`;
    user.email = snapshot.email;
    changes.push("e-mail");
  }
  if (differs(old.name, snapshot.name) && target.name !== snapshot.name) {
    user.name = snapshot.name;
    changes.push("name");
  }
  if (differs(old.nickname, snapshot.nickname) && target.nickname !== snapshot.nickname) {
    user.nickname = snapshot.nickname;
    changes.push("nickname");
  }
  if (p.role === "student") fillChangedDetails(target, old, snapshot, fill);
  return null;
}

/** The plan of one person whose group is imported: skip, create, or link / update the account they match. */
function planPerson(planning: Planning, p: Person, group: GroupPlan, lists: PeopleNotes): UserPlan {
  const { existing } = planning;
  const profile = p.profile;
  if (!profile) lists.profileMissing.push(p.path);
  const password = profile?.password ?? null;
  if (!password) lists.withoutPassword.push(p.path);
  const counterbalanceGroup = counterbalanceOf(p, profile, lists);
  const seatComplete = profile?.grade != null && profile.className != null && profile.number != null;
  const student = p.role === "student";
  const snapshot = personSnapshot(p, counterbalanceGroup, password, seatComplete);
  const membership =
    p.role === "manager" ? { schoolId: null, academyId: group.id } : { schoolId: group.id, academyId: null };
  const base = personBase(p, snapshot, planning.now);

  const record = existing.records.get(recordKey("user", p.legacyId));
  const byLegacy = existing.usersByLegacy.get(p.legacyId);
  if (record && !byLegacy)
    return skipPerson(base, "deleted in Manabiya after an earlier import: not created again", record.targetId);
  const byEmail = p.email ? existing.usersByEmail.get(p.email) : undefined;
  const target = byLegacy ?? byEmail;

  if (!target) {
    return {
      ...base,
      action: "create",
      id: randomUUID(),
      writeRecord: true,
      user: { email: p.email, name: snapshot.name, nickname: snapshot.nickname, legacyId: p.legacyId, ...membership },
      details: student
        ? { grade: snapshot.grade, className: snapshot.className, number: snapshot.number, counterbalanceGroup }
        : undefined,
      createDetails: student,
      setPassword: password !== null,
      issueCode: student,
    };
  }
  if (!byLegacy && target.legacyId)
    return skipPerson(
      base,
      `e-mail ${p.email} belongs to another imported person (users/${target.legacyId})`,
      target.id,
    );

  const old = (byLegacy && record ? record.snapshot : null) as UserSnapshot | null;
  const fill: PersonFill = { user: {}, details: {}, changes: [] };
  const sameGroup = p.role === "manager" ? target.academyId === group.id : target.schoolId === group.id;
  const match: Match = { p, target, snapshot, sameGroup };
  const refused = old ? fillChanged(existing, match, old, membership, fill) : fillLinked(match, seatComplete, fill);
  if (refused !== null) return skipPerson(base, refused, target.id);
  const { user, details, changes } = fill;
  const setPassword = password !== null && !target.hasPassword;
  if (setPassword) changes.push("password");
  const createDetails = student && !target.hasDetails;
  const issueCode = student && target.codes === 0;
  if (issueCode) changes.push("sign-in code");
  return {
    ...base,
    action: changes.length > 0 || createDetails ? "update" : "unchanged",
    id: target.id,
    changes,
    user,
    details: student ? details : undefined,
    createDetails,
    setPassword,
    issueCode,
    writeRecord: !old || snapshotDiffers(old, snapshot, USER_KEYS),
  };
}

/** The people's plans, in the export's order; those whose group is not imported are skipped. */
function planPeople(
  planning: Planning,
  people: Person[],
  academyPlan: Map<string, GroupPlan>,
  schoolPlan: Map<string, GroupPlan>,
): { users: UserPlan[] } & PeopleNotes {
  const users: UserPlan[] = [];
  const lists: PeopleNotes = { withoutPassword: [], profileMissing: [], groupsNotImported: [] };
  for (const p of people) {
    const group = p.role === "manager" ? academyPlan.get(p.group) : schoolPlan.get(p.group);
    if (!group || group.action === "skip") {
      planning.skipped.push({
        path: p.path,
        reason: `its ${p.role === "manager" ? "academy" : "school"} (${p.group}) is not imported`,
      });
      continue;
    }
    users.push(planPerson(planning, p, group, lists));
  }
  return { users, ...lists };
}

export function planImport(
  data: LegacyExport,
  existing: Existing,
  options: { schoolAcademy?: Map<string, string>; now: Date },
): PlanResult {
  const planning: Planning = {
    data,
    existing,
    options,
    now: () => options.now,
    skipped: [],
    notes: [],
    namedById: [],
  };
  const { skipped, notes, namedById } = planning;
  if (data.ignoredCollections.length > 0) notes.push(`collections not imported: ${data.ignoredCollections.join(", ")}`);
  const { people, used } = mergePeople(planning);
  skipUnusedProfiles(planning, used);

  const academies = groupIds(data, people, "academy").map((id) => planGroup(planning, "academy", id));
  const academyPlan = new Map(academies.map((a) => [a.legacyId, a]));
  const { schools, problems } = planSchools(planning, people, academies, academyPlan);
  if (problems.length > 0) return { ok: false, problems };
  const schoolPlan = new Map(schools.map((s) => [s.legacyId, s]));

  const { users, withoutPassword, profileMissing, groupsNotImported } = planPeople(
    planning,
    people,
    academyPlan,
    schoolPlan,
  );
  return {
    ok: true,
    plan: { academies, schools, users, skipped, withoutPassword, profileMissing, groupsNotImported, namedById, notes },
  };
}

/** Created / updated / unchanged / skipped per kind (every skipped document is a person's: users or role documents). */
export function countPlan(plan: Plan) {
  const count = (rows: { action: Action }[]) => ({
    created: rows.filter((r) => r.action === "create").length,
    updated: rows.filter((r) => r.action === "update").length,
    unchanged: rows.filter((r) => r.action === "unchanged").length,
    skipped: rows.filter((r) => r.action === "skip").length,
  });
  const users = count(plan.users);
  return {
    academies: count(plan.academies),
    schools: count(plan.schools),
    users: { ...users, skipped: users.skipped + plan.skipped.length },
  };
}
