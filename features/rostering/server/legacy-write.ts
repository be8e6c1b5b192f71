import type { Prisma } from "@/platform/db/generated/prisma/client";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import type { GroupPlan, Plan, UserPlan } from "./legacy-plan";

/**
 * The writes of a legacy import, inside a transaction the caller opens:
 * academies and schools in one, then people a batch at a time (each batch its
 * own transaction, features/rostering/server/legacy-import.ts). Every row carries its legacy id and
 * legacy_records its snapshot, so a run cut short resumes where it stopped.
 */

const CHUNK = 500;

export function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** The plan asked for a password it has no hash for: the data changed since the hashing (the caller says "run again"). */
export class PlanChanged extends Error {}

async function writeRecords(
  tx: Prisma.TransactionClient,
  rows: { kind: string; g: GroupPlan | UserPlan }[],
  now: Date,
) {
  for (const batch of chunks(rows.filter(({ g }) => g.action !== "skip" && g.writeRecord))) {
    await tx.legacyRecord.deleteMany({ where: { OR: batch.map(({ kind, g }) => ({ kind, legacyId: g.legacyId })) } });
    await tx.legacyRecord.createMany({
      data: batch.map(({ kind, g }) => ({
        kind,
        legacyId: g.legacyId,
        targetId: g.id,
        snapshot: g.snapshot as unknown as Prisma.InputJsonValue,
        importedAt: now,
      })),
    });
  }
}

/** Academies, then schools (created and renamed), with their records. */
export async function writeGroups(tx: Prisma.TransactionClient, plan: Pick<Plan, "academies" | "schools">, now: Date) {
  for (const kind of ["academies", "schools"] as const) {
    const groups = plan[kind];
    const created = groups.filter((g) => g.action === "create");
    const data = created.map((g) => ({
      id: g.id,
      legacyId: g.legacyId,
      name: g.name,
      nameKana: g.nameKana,
      createdAt: g.createdAt,
      updatedAt: g.createdAt,
    }));
    if (kind === "academies") await tx.academy.createMany({ data });
    else await tx.school.createMany({ data: created.map((g, i) => ({ ...data[i]!, academyId: g.academyId! })) });
    for (const g of groups.filter((g) => g.action === "update")) {
      if (kind === "academies")
        await tx.academy.update({ where: { id: g.id }, data: { name: g.name }, select: { id: true } });
      else await tx.school.update({ where: { id: g.id }, data: { name: g.name }, select: { id: true } });
    }
  }
  await writeRecords(
    tx,
    [...plan.academies.map((g) => ({ kind: "academy", g })), ...plan.schools.map((g) => ({ kind: "school", g }))],
    now,
  );
}

/** The people of one batch: updates, creations (with student details), sign-in codes and records. */
export async function writeUsers(
  tx: Prisma.TransactionClient,
  users: UserPlan[],
  hashes: Map<string, string>,
  options: { signinCodeKey: string; now: Date },
) {
  const passwordHash = (legacyId: string) => {
    const hash = hashes.get(legacyId);
    if (!hash) throw new PlanChanged();
    return hash;
  };
  // updates first: an e-mail one person gives up can be taken by someone created in the same run
  let passwordsSet = 0;
  for (const u of users.filter((u) => u.action === "update")) {
    const data: Prisma.UserUncheckedUpdateInput = { ...u.user };
    if (u.setPassword) {
      data.passwordHash = passwordHash(u.legacyId);
      passwordsSet += 1;
    }
    if (Object.keys(data).length > 0) await tx.user.update({ where: { id: u.id }, data, select: { id: true } });
    if (u.createDetails)
      await tx.studentDetail.create({
        data: { userId: u.id, grade: null, className: null, number: null, counterbalanceGroup: null, ...u.details },
        select: { userId: true },
      });
    else if (u.details && Object.keys(u.details).length > 0)
      await tx.studentDetail.update({ where: { userId: u.id }, data: u.details, select: { userId: true } });
  }
  for (const batch of chunks(users.filter((u) => u.action === "create"))) {
    await tx.user.createMany({
      data: batch.map((u) => ({
        id: u.id,
        legacyId: u.legacyId,
        role: u.role,
        groupType: u.role === "manager" ? ("academy" as const) : ("school" as const),
        email: u.user.email ?? null,
        name: u.user.name ?? null,
        nickname: u.user.nickname ?? null,
        schoolId: u.user.schoolId ?? null,
        academyId: u.user.academyId ?? null,
        passwordHash: u.setPassword ? passwordHash(u.legacyId) : null,
        createdAt: u.createdAt,
        updatedAt: u.updatedAt,
      })),
    });
    passwordsSet += batch.filter((u) => u.setPassword).length;
    const students = batch.filter((u) => u.createDetails);
    if (students.length > 0) {
      await tx.studentDetail.createMany({
        data: students.map((u) => ({
          userId: u.id,
          grade: u.details?.grade ?? null,
          className: u.details?.className ?? null,
          number: u.details?.number ?? null,
          counterbalanceGroup: u.details?.counterbalanceGroup ?? null,
          createdAt: u.createdAt,
          updatedAt: u.updatedAt,
        })),
      });
    }
  }
  const coded = users.filter((u) => (u.action === "create" || u.action === "update") && u.issueCode);
  for (const batch of chunks(coded)) {
    await tx.signinCode.createMany({
      data: batch.map((u) => {
        const sealed = sealNewCode(options.signinCodeKey);
        return { userId: u.id, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted };
      }),
    });
  }
  await writeRecords(
    tx,
    users.map((g) => ({ kind: "user", g })),
    options.now,
  );
  return { codesIssued: coded.length, passwordsSet };
}
