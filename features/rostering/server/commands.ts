import "server-only";
import { randomUUID } from "node:crypto";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { env } from "@/platform/env";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { READ_FILES, type ReadFile } from "@/features/rostering/shared/oneroster-columns";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import { fieldsOfRow } from "@/features/rostering/shared/oneroster-record";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { planWithWork } from "./plan";
import type { ApplyProgress, ClassTarget, RosterPlan, SchoolSummary, SchoolWork, UserTarget } from "../shared/types";

export interface ApplyOptions {
  /** The manager applying it (null: the command line). */
  actorId?: string | null;
  via?: "web" | "cli" | "rollover";
  onProgress?: (progress: ApplyProgress) => void;
  /** Readings of the schools the set creates, by the school's sourcedId (OneRoster carries none; empty otherwise). */
  schoolKana?: ReadonlyMap<string, string>;
}

const BATCH = 1000;
const batches = <T>(rows: T[]) =>
  Array.from({ length: Math.ceil(rows.length / BATCH) }, (_, i) => rows.slice(i * BATCH, (i + 1) * BATCH));

const userData = (t: UserTarget) => ({
  email: t.email,
  name: t.name,
  nameKana: t.nameKana,
  familyName: t.familyName,
  givenName: t.givenName,
  kanaFamilyName: t.kanaFamilyName,
  kanaGivenName: t.kanaGivenName,
  userMasterIdentifier: t.userMasterIdentifier,
  disabled: false,
});
const seat = (t: UserTarget) => ({ grade: t.grade, className: t.className, number: t.number });
const classData = (c: ClassTarget) => ({
  sourcedId: c.sourcedId,
  title: c.title,
  gradeCode: c.gradeCode,
  grade: c.grade,
  className: c.className,
  classCode: c.classCode,
  courseSourcedId: c.courseSourcedId,
  termSourcedId: c.termSourcedId,
});

async function newCodes(tx: Prisma.TransactionClient, userIds: string[]) {
  const key = env().SIGNIN_CODE_KEY;
  for (const ids of batches(userIds)) {
    await tx.signinCode.createMany({ data: ids.map((userId) => ({ userId, ...pick(sealNewCode(key)) })) });
  }
}
const pick = (s: { codeHash: string; codeEncrypted: string }) => ({
  codeHash: s.codeHash,
  codeEncrypted: s.codeEncrypted,
});

async function createPeople(tx: Prisma.TransactionClient, schoolId: string, people: UserTarget[]) {
  const rows = people.map((t) => ({ id: randomUUID(), t }));
  for (const chunk of batches(rows)) {
    await tx.user.createMany({
      data: chunk.map(({ id, t }) => ({
        id,
        role: t.role,
        groupType: "school" as const,
        schoolId,
        sourcedId: t.sourcedId,
        ...userData(t),
      })),
    });
    const students = chunk.filter(({ t }) => t.role === "student");
    if (students.length)
      await tx.studentDetail.createMany({ data: students.map(({ id, t }) => ({ userId: id, ...seat(t) })) });
  }
  await newCodes(
    tx,
    rows.filter(({ t }) => t.role === "student").map(({ id }) => id),
  );
}

async function updatePerson(tx: Prisma.TransactionClient, id: string, t: UserTarget, schoolId?: string) {
  await tx.user.update({
    where: { id },
    data: {
      ...userData(t),
      ...(schoolId ? { schoolId, sessionVersion: { increment: 1 } } : {}),
      ...(t.role === "student" ? { student: { upsert: { create: seat(t), update: seat(t) } } } : {}),
    },
    select: { id: true },
  });
}

/** One school's share of the import, inside its own transaction. */
/**
 * Hand-added accounts the set takes over (plan-core.ts linkOf): the same user row gets the sourcedId, the
 * name and seat of the set; its id, password, sign-in card and answers stay. The update is guarded on
 * "still no sourcedId, still this school", so a concurrent change makes the transaction fail instead of
 * linking the wrong account. One audit row per link.
 */
async function linkPeople(
  tx: Prisma.TransactionClient,
  academyId: string,
  schoolId: string,
  w: SchoolWork,
  actorId: string | null,
  via: string,
) {
  for (const { id, target } of w.link) {
    const { count } = await tx.user.updateMany({
      where: { id, schoolId, sourcedId: null, role: target.role },
      data: { sourcedId: target.sourcedId },
    });
    if (count !== 1) throw new Error(`roster link: account ${id} changed during the import`);
    await updatePerson(tx, id, target);
    await audit(
      {
        action: "roster.link",
        actorId,
        academyId,
        schoolId,
        targetType: "user",
        targetId: id,
        meta: { via, sourcedId: target.sourcedId },
      },
      tx,
    );
  }
}

async function applySchool(
  tx: Prisma.TransactionClient,
  academyId: string,
  w: SchoolWork,
  actorId: string | null,
  via: string,
  nameKana = "",
): Promise<string> {
  let schoolId = w.schoolId;
  if (!schoolId)
    schoolId = (
      await tx.school.create({
        data: { academyId, name: w.name, nameKana, sourcedId: w.sourcedId },
        select: { id: true },
      })
    ).id;
  else if (w.schoolChanged)
    await tx.school.update({
      where: { id: schoolId },
      data: { name: w.name, sourcedId: w.sourcedId },
      select: { id: true },
    });

  // free the seats that change first: the one-student-per-seat index checks every statement
  const changing = [
    ...w.update.map((x) => x.id),
    ...w.link.map((x) => x.id),
    ...w.disable.map((d) => d.id),
    ...w.leaving,
  ];
  await tx.studentDetail.updateMany({ where: { userId: { in: changing }, schoolId }, data: { number: null } });
  await tx.studentDetail.updateMany({ where: { userId: { in: w.move.map((x) => x.id) } }, data: { number: null } });

  if (w.disable.length) {
    await tx.user.updateMany({
      where: { id: { in: w.disable.map((d) => d.id) } },
      data: { disabled: true, sessionVersion: { increment: 1 } },
    });
  }
  if (w.classDelete.length) await tx.rosterClass.deleteMany({ where: { id: { in: w.classDelete }, schoolId } });
  await tx.rosterClass.createMany({ data: w.classCreate.map((c) => ({ schoolId, ...classData(c) })) });
  for (const { id, target } of w.classUpdate)
    await tx.rosterClass.update({ where: { id }, data: classData(target), select: { id: true } });

  await createPeople(tx, schoolId, w.create);
  for (const { id, target } of w.update) await updatePerson(tx, id, target);
  await linkPeople(tx, academyId, schoolId, w, actorId, via);
  if (w.move.length) {
    // a transfer keeps the person (same id, answers untouched); their card is reissued
    const ids = w.move.map((x) => x.id);
    await tx.signinCode.updateMany({
      where: { userId: { in: ids }, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    for (const { id, target } of w.move) await updatePerson(tx, id, target, schoolId);
    await newCodes(
      tx,
      w.move.filter((x) => x.target.role === "student").map((x) => x.id),
    );
  }

  // 担任: by the teacher's sourcedId, once every teacher of the school exists
  const linked = [...w.classCreate, ...w.classUpdate.map((x) => x.target)];
  const teacherIds = [...new Set(linked.flatMap((c) => (c.teacherSourcedId ? [c.teacherSourcedId] : [])))];
  const teachers = new Map(
    (
      await tx.user.findMany({
        where: { sourcedId: { in: teacherIds }, role: "teacher", school: { academyId } },
        select: { id: true, sourcedId: true },
      })
    ).map((u) => [u.sourcedId!, u.id]),
  );
  if (linked.length) {
    const classIds = linked.map((c) => c.sourcedId);
    const teacherOf = linked.map((c) => (c.teacherSourcedId ? (teachers.get(c.teacherSourcedId) ?? null) : null));
    await tx.$executeRaw`UPDATE "roster_classes" rc SET "homeroom_teacher_id" = v.teacher::uuid
      FROM unnest(${classIds}::text[], ${teacherOf}::text[]) AS v(sourced_id, teacher)
      WHERE rc."school_id" = ${schoolId}::uuid AND rc."sourced_id" = v.sourced_id`;
  }
  return schoolId;
}

/** One school's share of a planned set, written and audited (`roster.import`) in the caller's transaction; the school's id. */
export async function applySchoolWork(
  tx: Prisma.TransactionClient,
  academyId: string,
  w: SchoolWork,
  summary: SchoolSummary,
  options: Pick<ApplyOptions, "actorId" | "via" | "schoolKana">,
): Promise<string> {
  const schoolId = await applySchool(
    tx,
    academyId,
    w,
    options.actorId ?? null,
    options.via ?? "web",
    options.schoolKana?.get(w.sourcedId),
  );
  await audit(
    {
      action: "roster.import",
      actorId: options.actorId ?? null,
      academyId,
      schoolId,
      targetType: "school",
      targetId: schoolId,
      meta: { via: options.via ?? "web", sourcedId: w.sourcedId, ...countsOf(summary) },
    },
    tx,
  );
  return schoolId;
}

const countsOf = (s: SchoolSummary) => ({ students: s.students, teachers: s.teachers, classes: s.classes });
const changes = (s: SchoolSummary) =>
  [s.students, s.teachers, s.classes].some((c) => c.create + c.update + c.move + c.disable + c.link > 0);

/** The applied set's profile (as read) becomes the academy's export default; the profile, or null. */
async function rememberProfile(
  tx: Prisma.TransactionClient,
  academyId: string,
  set: RosterSet,
): Promise<string | null> {
  const profile = set.manifest.profile ?? null;
  if (profile)
    await tx.academy.update({ where: { id: academyId }, data: { rosterProfile: profile }, select: { id: true } });
  return profile;
}

/** The orgs sourcedId of the school a row belongs to (null: a district, an academic session). */
function schoolOfRow(
  set: RosterSet,
  file: ReadFile,
  row: RosterSet[ReadFile][number],
  primaryOrg: Map<string, string>,
): string | null {
  const r = row as unknown as Record<string, unknown>;
  switch (file) {
    case "orgs":
      return r.type === "school" ? row.sourcedId : null;
    case "courses":
    case "roles":
      return r.orgSourcedId as string;
    case "classes":
    case "enrollments":
      return r.schoolSourcedId as string;
    case "users":
      return (r.primaryOrgSourcedId as string | null) ?? primaryOrg.get(row.sourcedId) ?? null;
    default:
      return null;
  }
}

/**
 * The academy's record of every row the set carries (docs/oneroster.md "The sourcedId record"), in the
 * caller's transaction: each row upserted with its status, dateLastModified, school, profile and fields
 * as sent; a bulk file's kind also marks `tobedeleted` the recorded rows of the set's schools it no longer names.
 */
async function recordRosterSet(tx: Prisma.TransactionClient, academyId: string, set: RosterSet): Promise<void> {
  const profile = set.manifest.onerosterVersion;
  const schools = set.orgs.filter((o) => o.type === "school").map((o) => o.sourcedId);
  const primaryOrg = new Map(
    set.roles.filter((r) => r.roleType === "primary").map((r) => [r.userSourcedId, r.orgSourcedId]),
  );
  for (const file of READ_FILES) {
    const rows = set[file] as RosterSet[ReadFile][number][];
    if (set.manifest.files[file] === "bulk" && schools.length) {
      await tx.$executeRaw`UPDATE "roster_records" SET "status" = 'tobedeleted', "updated_at" = now()
        WHERE "academy_id" = ${academyId}::uuid AND "kind" = ${file} AND "school_sourced_id" = ANY(${schools}::text[])
          AND "status" = 'active' AND NOT ("sourced_id" = ANY(${rows.map((r) => r.sourcedId)}::text[]))`;
    }
    for (const chunk of batches(rows)) {
      const ids = chunk.map((r) => r.sourcedId);
      const statuses = chunk.map((r) => r.status ?? "active");
      const modified = chunk.map((r) => r.dateLastModified);
      const owners = chunk.map((r) => schoolOfRow(set, file, r, primaryOrg));
      const fields = chunk.map((r) => JSON.stringify(fieldsOfRow(file, r)));
      await tx.$executeRaw`INSERT INTO "roster_records" ("academy_id", "kind", "sourced_id", "status", "date_last_modified", "school_sourced_id", "profile", "fields")
        SELECT ${academyId}::uuid, ${file}, v.id, v.status, v.modified, v.school, ${profile}, v.fields::jsonb
        FROM unnest(${ids}::text[], ${statuses}::text[], ${modified}::text[], ${owners}::text[], ${fields}::text[]) AS v(id, status, modified, school, fields)
        ON CONFLICT ("academy_id", "kind", "sourced_id") DO UPDATE SET "status" = EXCLUDED."status", "date_last_modified" = EXCLUDED."date_last_modified",
          "school_sourced_id" = EXCLUDED."school_sourced_id", "profile" = EXCLUDED."profile", "fields" = EXCLUDED."fields", "updated_at" = now()`;
    }
  }
}

/**
 * What an applied set leaves besides its changes, in the caller's transaction: the record of every row
 * it carries (recordRosterSet) and its profile as the academy's export default; the profile, or null.
 */
export async function recordAppliedSet(
  tx: Prisma.TransactionClient,
  academyId: string,
  set: RosterSet,
): Promise<string | null> {
  await recordRosterSet(tx, academyId, set);
  return rememberProfile(tx, academyId, set);
}

/**
 * Applies a set: plans again against the database as it is now and, only when there is no
 * problem, writes each school in one transaction (progress after each). Every changed
 * school's share is in the audit log (`roster.import`, with its counts), and every apply,
 * refused or not, once more (`roster.apply`). An applied set's profile becomes the academy's
 * export default. With problems nothing changes and the plan says why.
 */
export async function applyRosterImport(
  academyId: string,
  set: RosterSet,
  options: ApplyOptions = {},
): Promise<RosterPlan & { applied: boolean }> {
  const { plan, work } = await planWithWork(academyId, set);
  const summary = { via: options.via ?? "web", schools: plan.schools.length, problems: plan.problems.length };
  if (plan.problems.length > 0) {
    await audit({
      action: "roster.apply",
      actorId: options.actorId ?? null,
      academyId,
      meta: { ...summary, applied: false },
    });
    return { ...plan, applied: false };
  }
  const total = work.length;
  for (const [i, w] of work.entries()) {
    const summary = plan.schools[i]!;
    if (changes(summary) || w.schoolChanged) {
      await db().$transaction(
        async (tx) => {
          await applySchoolWork(tx, academyId, w, summary, options);
        },
        { timeout: 300_000, maxWait: 30_000 },
      );
    }
    options.onProgress?.({
      school: w.name,
      done: i + 1,
      total,
      summary: { sourcedId: summary.sourcedId, name: summary.name, newSchool: summary.newSchool, ...countsOf(summary) },
    });
  }
  // every row sent is recorded, whether or not it changed the product (a scheduled class, a role, a 副担任)
  const profile = await db().$transaction((tx) => recordAppliedSet(tx, academyId, set), {
    timeout: 300_000,
    maxWait: 30_000,
  });
  await audit({
    action: "roster.apply",
    actorId: options.actorId ?? null,
    academyId,
    meta: { ...summary, applied: true, changed: plan.schools.filter(changes).length, profile },
  });
  return { ...plan, applied: true };
}
