import { availableParallelism } from "node:os";
import { hashPassword } from "@/platform/auth/password";
import { Prisma, type PrismaClient } from "@/platform/db/generated/prisma/client";
import type { LegacyExport, LegacyProblem } from "../shared/legacy-format";
import {
  type Existing,
  type ExistingUser,
  type Plan,
  type UserPlan,
  countPlan,
  planImport,
  recordKey,
  UUID_PATTERN,
} from "./legacy-plan";
import { chunks, PlanChanged, writeGroups, writeUsers } from "./legacy-write";

/**
 * Runs a legacy import (docs/adr/0033-legacy-import.md) against a database:
 * reads what Manabiya holds, plans (features/rostering/server/legacy-plan.ts), then writes in bounded
 * steps: academies and schools in one transaction, then people a batch at a
 * time, each batch hashed (argon2id) and then re-planned and written in a
 * transaction of its own under an advisory lock, so a concurrent import or edit
 * cannot slip in between. A run cut short (crash, Ctrl-C) leaves whole batches
 * written and the next run resumes: people already imported are matched on
 * their legacy id and come out "unchanged". A dry run stops after the plan.
 * Clear-text passwords live only in memory between the file and argon2.
 */

type Db = PrismaClient | Prisma.TransactionClient;

export interface ImportOptions {
  dryRun: boolean;
  schoolAcademy?: Map<string, string>;
  signinCodeKey: string;
  now?: Date;
  /** Called as work advances (phase, done, total) for a progress bar. */
  onProgress?: (phase: "hashing" | "writing", done: number, total: number) => void;
  /** People per transaction (default 2,000). */
  batchSize?: number;
  /** Called after each batch is committed (1-based count), e.g. for a log line. */
  onBatchWritten?: (batch: number, people: number) => void | Promise<void>;
}

export type ImportResult =
  | {
      ok: true;
      dryRun: boolean;
      plan: Plan;
      counts: ReturnType<typeof countPlan>;
      codesIssued: number;
      passwordsSet: number;
    }
  | { ok: false; problems: LegacyProblem[] };

const LOCK_KEY = 0x6c656761; // "lega": one import at a time per database
export const DEFAULT_BATCH = 2000;
const TX = { timeout: 10 * 60_000, maxWait: 60_000 };

const recordSelect = { kind: true, legacyId: true, targetId: true, snapshot: true } as const;

/** `query` over `values` 10,000 at a time (one after the other), results joined. */
async function inParts<T>(values: string[], query: (part: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunks(values, 10_000)) out.push(...(await query(part)));
  return out;
}

/** The e-mails of the export's people (users document or their own role document): a batch loads only its own. */
function emailsOf(data: LegacyExport): Set<string> {
  const emails = new Set<string>();
  for (const u of data.users) {
    const profile = (u.role === "manager" ? data.academies : data.schools)
      .get(u.groupId)
      ?.members.get(u.role)
      ?.get(u.id);
    for (const e of [u.email, profile?.email]) if (e) emails.add(e);
  }
  return emails;
}

/** The legacy ids of the schools and academies the export and the school-to-academy map name. */
function groupIdsOf(data: LegacyExport, schoolAcademy?: Map<string, string>) {
  const schoolIds = new Set([
    ...data.schools.keys(),
    ...data.users.filter((u) => u.role !== "manager").map((u) => u.groupId),
  ]);
  const academyIds = new Set([
    ...data.academies.keys(),
    ...data.users.filter((u) => u.role === "manager").map((u) => u.groupId),
    ...(schoolAcademy?.values() ?? []),
  ]);
  return { schoolIds, academyIds };
}

const userSelect = {
  id: true,
  legacyId: true,
  email: true,
  role: true,
  schoolId: true,
  academyId: true,
  name: true,
  nickname: true,
  passwordHash: true,
  student: { select: { grade: true, className: true, number: true, counterbalanceGroup: true } },
  _count: { select: { signinCodes: true } },
} as const;

function toExistingUser(u: Prisma.UserGetPayload<{ select: typeof userSelect }>): ExistingUser {
  return {
    id: u.id,
    legacyId: u.legacyId,
    email: u.email,
    role: u.role,
    schoolId: u.schoolId,
    academyId: u.academyId,
    name: u.name,
    nickname: u.nickname,
    hasPassword: u.passwordHash !== null,
    hasDetails: u.student !== null,
    grade: u.student?.grade ?? null,
    className: u.student?.className ?? null,
    number: u.student?.number ?? null,
    counterbalanceGroup: u.student?.counterbalanceGroup ?? null,
    codes: u._count.signinCodes,
  };
}

/** The legacy records of the people, then of the schools and academies. */
function loadRecords(db: Db, userIds: string[], schoolIds: Set<string>, academyIds: Set<string>) {
  return inParts(userIds, (part) =>
    db.legacyRecord.findMany({ where: { kind: "user", legacyId: { in: part } }, select: recordSelect }),
  ).then(async (users) => [
    ...users,
    ...(await db.legacyRecord.findMany({
      where: {
        OR: [
          { kind: "school", legacyId: { in: [...schoolIds] } },
          { kind: "academy", legacyId: { in: [...academyIds] } },
        ],
      },
      select: recordSelect,
    })),
  ]);
}

/** What Manabiya already holds for the export's ids and e-mails. */
export async function loadExisting(db: Db, data: LegacyExport, schoolAcademy?: Map<string, string>): Promise<Existing> {
  const userIds = data.users.map((u) => u.id);
  const emails = emailsOf(data);
  const { schoolIds, academyIds } = groupIdsOf(data, schoolAcademy);
  const uuids = [...(schoolAcademy?.values() ?? [])].filter((v) => UUID_PATTERN.test(v)).map((v) => v.toLowerCase());

  const [academies, academiesById, schools, users, records] = await Promise.all([
    db.academy.findMany({
      where: { legacyId: { in: [...academyIds] } },
      select: { id: true, legacyId: true, name: true },
    }),
    uuids.length > 0 ? db.academy.findMany({ where: { id: { in: uuids } }, select: { id: true } }) : [],
    db.school.findMany({
      where: { legacyId: { in: [...schoolIds] } },
      select: { id: true, legacyId: true, academyId: true, name: true },
    }),
    // PostgreSQL takes at most 65,535 parameters a statement: ids and e-mails go 10,000 at a time
    inParts([...userIds, ...emails], (part) =>
      db.user.findMany({ where: { OR: [{ legacyId: { in: part } }, { email: { in: part } }] }, select: userSelect }),
    ),
    loadRecords(db, userIds, schoolIds, academyIds),
  ]);
  const existingUsers = [...new Map(users.map((u) => [u.id, toExistingUser(u)])).values()];
  return {
    academiesByLegacy: new Map(academies.map((a) => [a.legacyId!, { id: a.id, name: a.name }])),
    academiesById: new Map(academiesById.map((a) => [a.id, a])),
    schoolsByLegacy: new Map(schools.map((s) => [s.legacyId!, { id: s.id, academyId: s.academyId, name: s.name }])),
    usersByLegacy: new Map(existingUsers.filter((u) => u.legacyId).map((u) => [u.legacyId!, u])),
    usersByEmail: new Map(existingUsers.filter((u) => u.email).map((u) => [u.email!, u])),
    records: new Map(
      records.map((r) => [recordKey(r.kind as "user", r.legacyId), { targetId: r.targetId, snapshot: r.snapshot }]),
    ),
  };
}

/** The clear-text password of each person (legacy id) from the role documents, never copied elsewhere. */
function passwordsOf(data: LegacyExport): Map<string, string> {
  const out = new Map<string, string>();
  for (const u of data.users) {
    const groups = u.role === "manager" ? data.academies : data.schools;
    const password = groups.get(u.groupId)?.members.get(u.role)?.get(u.id)?.password;
    if (password) out.set(u.id, password);
  }
  return out;
}

/** argon2id hashes for the people the plan gives a password, a few at a time (libuv's pool), with progress. */
async function hashAll(
  users: UserPlan[],
  passwords: Map<string, string>,
  onDone?: () => void,
): Promise<Map<string, string>> {
  const wanted = users.filter((u) => u.setPassword).map((u) => u.legacyId);
  const hashes = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const id = wanted[next++]!;
      hashes.set(id, await hashPassword(passwords.get(id)!));
      onDone?.();
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, Math.min(4, availableParallelism())) }, worker));
  return hashes;
}

class Refusal extends Error {
  constructor(readonly problems: LegacyProblem[]) {
    super("refused");
  }
}

/** What one run works with: the database, the export, the caller's options and the planner's. */
interface Run {
  prisma: PrismaClient;
  data: LegacyExport;
  options: ImportOptions;
  planOptions: { schoolAcademy?: Map<string, string>; now: Date };
}

type Progress = ReturnType<typeof progressOf>;

/** Counts the people hashed and the rows written, and reports each step to `onProgress`. */
function progressOf(options: ImportOptions, toHash: number, total: number) {
  const count = { hashed: 0, written: 0 };
  const report = (phase: "hashing" | "writing", n: number) => {
    if (phase === "hashing") options.onProgress?.("hashing", (count.hashed += n), Math.max(toHash, count.hashed));
    else options.onProgress?.("writing", (count.written += n), total);
  };
  return { count, report };
}

const lockImports = (tx: Prisma.TransactionClient) => tx.$executeRaw`select pg_advisory_xact_lock(${LOCK_KEY})`;

function dryRunResult(plan: Plan): ImportResult {
  return {
    ok: true,
    dryRun: true,
    plan,
    counts: countPlan(plan),
    codesIssued: plan.users.filter((u) => u.action !== "skip" && u.action !== "unchanged" && u.issueCode).length,
    passwordsSet: plan.users.filter((u) => u.setPassword && u.action !== "skip").length,
  };
}

/** Academies and schools: few rows, one transaction (people are planned here only to find the groups they name). */
function importGroups({ prisma, data, options, planOptions }: Run): Promise<Plan> {
  return prisma.$transaction(async (tx) => {
    await lockImports(tx);
    const again = planImport(data, await loadExisting(tx, { ...data, users: [] }, options.schoolAcademy), planOptions);
    if (!again.ok) throw new Refusal(again.problems);
    await writeGroups(tx, again.plan, planOptions.now);
    return again.plan;
  }, TX);
}

/** One batch of people: hashed first (outside), then re-planned against the database and written in a transaction. */
async function importBatch(
  { prisma, options, planOptions }: Run,
  batch: LegacyExport,
  passwords: Map<string, string>,
  progress: Progress,
) {
  const pre = planImport(batch, await loadExisting(prisma, batch, options.schoolAcademy), planOptions);
  if (!pre.ok) throw new Refusal(pre.problems);
  const hashes = await hashAll(pre.plan.users, passwords, () => progress.report("hashing", 1));
  return prisma.$transaction(async (tx) => {
    await lockImports(tx);
    const again = planImport(batch, await loadExisting(tx, batch, options.schoolAcademy), planOptions);
    if (!again.ok) throw new Refusal(again.problems);
    return {
      users: again.plan.users,
      ...(await writeUsers(tx, again.plan.users, hashes, {
        signinCodeKey: options.signinCodeKey,
        now: planOptions.now,
      })),
    };
  }, TX);
}

/** The people, a batch per transaction, in the plan's order. */
async function importPeople(run: Run, people: string[], passwords: Map<string, string>, progress: Progress) {
  const { data, options } = run;
  const byId = new Map(data.users.map((u) => [u.id, u]));
  const users: UserPlan[] = [];
  let codesIssued = 0;
  let passwordsSet = 0;
  const batches = chunks(people, options.batchSize ?? DEFAULT_BATCH);
  for (const [i, ids] of batches.entries()) {
    const batch: LegacyExport = { ...data, users: ids.map((id) => byId.get(id)!) };
    const done = await importBatch(run, batch, passwords, progress);
    users.push(...done.users);
    codesIssued += done.codesIssued;
    passwordsSet += done.passwordsSet;
    progress.report("writing", ids.length);
    await options.onBatchWritten?.(i + 1, ids.length);
  }
  return { users, codesIssued, passwordsSet, batches: batches.length };
}

/** The first plan with the groups and people as they were written. */
function writtenPlan(first: Plan, groups: Plan, users: UserPlan[]): Plan {
  return {
    ...first,
    academies: groups.academies,
    schools: groups.schools,
    users,
    namedById: groups.namedById,
    notes: groups.notes,
    withoutPassword: first.withoutPassword,
    profileMissing: first.profileMissing,
    groupsNotImported: first.groupsNotImported,
  };
}

/** A run that failed: a refusal, or a batch the database refused after a concurrent change; anything else is thrown. */
function failedImport(error: unknown, written: number): ImportResult {
  const resume =
    written > 0
      ? " The batches before it are written; running the import again resumes after them."
      : " Nothing was written.";
  if (error instanceof Refusal) return { ok: false, problems: error.problems };
  const batchNotWritten = (message: string): ImportResult => ({
    ok: false,
    problems: [{ path: "(database)", message: `${message}; that batch was not written.${resume}` }],
  });
  if (error instanceof PlanChanged) return batchNotWritten("Manabiya's data changed while passwords were being hashed");
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    return batchNotWritten("an e-mail or id became taken in Manabiya during the import");
  }
  throw error;
}

export async function runImport(
  prisma: PrismaClient,
  data: LegacyExport,
  options: ImportOptions,
): Promise<ImportResult> {
  const now = options.now ?? new Date();
  const run: Run = { prisma, data, options, planOptions: { schoolAcademy: options.schoolAcademy, now } };
  const first = planImport(data, await loadExisting(prisma, data, options.schoolAcademy), run.planOptions);
  if (!first.ok) return first;
  if (options.dryRun) return dryRunResult(first.plan);
  const passwords = passwordsOf(data);
  const people = first.plan.users.map((u) => u.legacyId);
  const total = first.plan.academies.length + first.plan.schools.length + people.length;
  const toHash = first.plan.users.filter((u) => u.setPassword).length;
  const progress = progressOf(options, toHash, total);
  options.onProgress?.("hashing", 0, toHash);
  try {
    const groups = await importGroups(run);
    progress.report("writing", groups.academies.length + groups.schools.length);
    const { users, codesIssued, passwordsSet, batches } = await importPeople(run, people, passwords, progress);
    const plan = writtenPlan(first.plan, groups, users);
    const counts = countPlan(plan);
    await prisma.auditLog.create({
      data: {
        action: "legacy.import",
        meta: { ...counts, codesIssued, passwordsSet, skipped: plan.skipped.length, batches },
        at: now,
      },
      select: { id: true },
    });
    return { ok: true, dryRun: false, plan, counts, codesIssued, passwordsSet };
  } catch (error) {
    return failedImport(error, progress.count.written);
  }
}
