import { availableParallelism } from "node:os";
import { hashPassword } from "@/lib/auth/password";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { sealNewCode } from "@/lib/signin-codes/crypto";
import type { LegacyExport, LegacyProblem } from "./format";
import { type Existing, type ExistingUser, type Plan, countPlan, planImport, recordKey, UUID_PATTERN } from "./plan";

/**
 * Runs a legacy import (issue #10) against a database: reads what Manabiya
 * holds, plans (lib/legacy/plan.ts), hashes the passwords the plan sets, and
 * writes everything in one transaction, re-planned inside it under an
 * advisory lock so that a concurrent import or edit cannot slip in between.
 * A dry run stops after the plan. Clear-text passwords live only in memory
 * between the file and argon2.
 */

type Db = PrismaClient | Prisma.TransactionClient;

export interface ImportOptions {
  dryRun: boolean;
  schoolAcademy?: Map<string, string>;
  signinCodeKey: string;
  now?: Date;
  /** Called as work advances (phase, done, total) for a progress bar. */
  onProgress?: (phase: "hashing" | "writing", done: number, total: number) => void;
}

export type ImportResult =
  | { ok: true; dryRun: boolean; plan: Plan; counts: ReturnType<typeof countPlan>; codesIssued: number; passwordsSet: number }
  | { ok: false; problems: LegacyProblem[] };

const LOCK_KEY = 0x6c656761; // "lega": one import at a time per database
const CHUNK = 500;

function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** What Manabiya already holds for the export's ids and e-mails. */
export async function loadExisting(db: Db, data: LegacyExport, schoolAcademy?: Map<string, string>): Promise<Existing> {
  const userIds = data.users.map((u) => u.id);
  const emails = new Set<string>();
  for (const u of data.users) if (u.email) emails.add(u.email);
  for (const groups of [data.schools, data.academies]) {
    for (const g of groups.values()) for (const profiles of g.members.values()) for (const p of profiles.values()) if (p.email) emails.add(p.email);
  }
  const schoolIds = new Set([...data.schools.keys(), ...data.users.filter((u) => u.role !== "manager").map((u) => u.groupId)]);
  const academyIds = new Set([...data.academies.keys(), ...data.users.filter((u) => u.role === "manager").map((u) => u.groupId), ...(schoolAcademy?.values() ?? [])]);
  const uuids = [...(schoolAcademy?.values() ?? [])].filter((v) => UUID_PATTERN.test(v)).map((v) => v.toLowerCase());

  const userSelect = {
    id: true, legacyId: true, email: true, role: true, schoolId: true, academyId: true, name: true, nickname: true, passwordHash: true,
    student: { select: { grade: true, className: true, number: true, counterbalanceGroup: true } },
    _count: { select: { signinCodes: true } },
  } as const;
  const [academies, academiesById, schools, users, records] = await Promise.all([
    db.academy.findMany({ where: { legacyId: { in: [...academyIds] } }, select: { id: true, legacyId: true, name: true } }),
    uuids.length > 0 ? db.academy.findMany({ where: { id: { in: uuids } }, select: { id: true } }) : [],
    db.school.findMany({ where: { legacyId: { in: [...schoolIds] } }, select: { id: true, legacyId: true, academyId: true, name: true } }),
    db.user.findMany({ where: { OR: [{ legacyId: { in: userIds } }, { email: { in: [...emails] } }] }, select: userSelect }),
    db.legacyRecord.findMany({
      where: {
        OR: [
          { kind: "user", legacyId: { in: userIds } },
          { kind: "school", legacyId: { in: [...schoolIds] } },
          { kind: "academy", legacyId: { in: [...academyIds] } },
        ],
      },
      select: { kind: true, legacyId: true, targetId: true, snapshot: true },
    }),
  ]);
  const toExisting = (u: (typeof users)[number]): ExistingUser => ({
    id: u.id, legacyId: u.legacyId, email: u.email, role: u.role, schoolId: u.schoolId, academyId: u.academyId, name: u.name, nickname: u.nickname,
    hasPassword: u.passwordHash !== null, hasDetails: u.student !== null,
    grade: u.student?.grade ?? null, className: u.student?.className ?? null, number: u.student?.number ?? null,
    counterbalanceGroup: u.student?.counterbalanceGroup ?? null, codes: u._count.signinCodes,
  });
  const existingUsers = users.map(toExisting);
  return {
    academiesByLegacy: new Map(academies.map((a) => [a.legacyId!, { id: a.id, name: a.name }])),
    academiesById: new Map(academiesById.map((a) => [a.id, a])),
    schoolsByLegacy: new Map(schools.map((s) => [s.legacyId!, { id: s.id, academyId: s.academyId, name: s.name }])),
    usersByLegacy: new Map(existingUsers.filter((u) => u.legacyId).map((u) => [u.legacyId!, u])),
    usersByEmail: new Map(existingUsers.filter((u) => u.email).map((u) => [u.email!, u])),
    records: new Map(records.map((r) => [recordKey(r.kind as "user", r.legacyId), { targetId: r.targetId, snapshot: r.snapshot }])),
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
async function hashAll(plan: Plan, passwords: Map<string, string>, onProgress?: ImportOptions["onProgress"]): Promise<Map<string, string>> {
  const wanted = plan.users.filter((u) => u.setPassword).map((u) => u.legacyId);
  const hashes = new Map<string, string>();
  let done = 0;
  let next = 0;
  onProgress?.("hashing", 0, wanted.length);
  const worker = async () => {
    while (next < wanted.length) {
      const id = wanted[next++]!;
      hashes.set(id, await hashPassword(passwords.get(id)!));
      done += 1;
      onProgress?.("hashing", done, wanted.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, Math.min(4, availableParallelism())) }, worker));
  return hashes;
}

class PlanChanged extends Error {}

async function write(tx: Prisma.TransactionClient, plan: Plan, hashes: Map<string, string>, options: ImportOptions) {
  const total = plan.academies.length + plan.schools.length + plan.users.length;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    options.onProgress?.("writing", done, total);
  };
  const now = options.now ?? new Date();

  for (const kind of ["academies", "schools"] as const) {
    const groups = plan[kind];
    const created = groups.filter((g) => g.action === "create");
    const data = created.map((g) => ({ id: g.id, legacyId: g.legacyId, name: g.name, nameKana: g.nameKana, createdAt: g.createdAt, updatedAt: g.createdAt }));
    if (kind === "academies") await tx.academy.createMany({ data });
    else await tx.school.createMany({ data: created.map((g, i) => ({ ...data[i]!, academyId: g.academyId! })) });
    for (const g of groups.filter((g) => g.action === "update")) {
      if (kind === "academies") await tx.academy.update({ where: { id: g.id }, data: { name: g.name }, select: { id: true } });
      else await tx.school.update({ where: { id: g.id }, data: { name: g.name }, select: { id: true } });
    }
    progress(groups.length);
  }

  const passwordHash = (legacyId: string) => {
    const hash = hashes.get(legacyId);
    if (!hash) throw new PlanChanged();
    return hash;
  };

  // updates first: an e-mail one person gives up can be taken by someone created in the same run
  let passwordsSet = 0;
  for (const u of plan.users.filter((u) => u.action === "update")) {
    const data: Prisma.UserUncheckedUpdateInput = { ...u.user };
    if (u.setPassword) {
      data.passwordHash = passwordHash(u.legacyId);
      passwordsSet += 1;
    }
    if (Object.keys(data).length > 0) await tx.user.update({ where: { id: u.id }, data, select: { id: true } });
    if (u.createDetails) await tx.studentDetail.create({ data: { userId: u.id, grade: null, className: null, number: null, counterbalanceGroup: null, ...u.details }, select: { userId: true } });
    else if (u.details && Object.keys(u.details).length > 0) await tx.studentDetail.update({ where: { userId: u.id }, data: u.details, select: { userId: true } });
  }
  progress(plan.users.length - plan.users.filter((u) => u.action === "create").length); // updated, unchanged and skipped people
  const created = plan.users.filter((u) => u.action === "create");
  for (const batch of chunks(created)) {
    await tx.user.createMany({
      data: batch.map((u) => ({
        id: u.id, legacyId: u.legacyId, role: u.role, groupType: u.role === "manager" ? ("academy" as const) : ("school" as const),
        email: u.user.email ?? null, name: u.user.name ?? null, nickname: u.user.nickname ?? null,
        schoolId: u.user.schoolId ?? null, academyId: u.user.academyId ?? null,
        passwordHash: u.setPassword ? passwordHash(u.legacyId) : null,
        createdAt: u.createdAt, updatedAt: u.updatedAt,
      })),
    });
    passwordsSet += batch.filter((u) => u.setPassword).length;
    const students = batch.filter((u) => u.createDetails);
    if (students.length > 0) {
      await tx.studentDetail.createMany({
        data: students.map((u) => ({
          userId: u.id, grade: u.details?.grade ?? null, className: u.details?.className ?? null, number: u.details?.number ?? null,
          counterbalanceGroup: u.details?.counterbalanceGroup ?? null, createdAt: u.createdAt, updatedAt: u.updatedAt,
        })),
      });
    }
    progress(batch.length);
  }

  const coded = plan.users.filter((u) => (u.action === "create" || u.action === "update") && u.issueCode);
  for (const batch of chunks(coded)) {
    await tx.signinCode.createMany({
      data: batch.map((u) => {
        const sealed = sealNewCode(options.signinCodeKey);
        return { userId: u.id, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted };
      }),
    });
  }

  const records = [
    ...plan.academies.map((g) => ({ kind: "academy", g })),
    ...plan.schools.map((g) => ({ kind: "school", g })),
    ...plan.users.map((g) => ({ kind: "user", g })),
  ].filter(({ g }) => g.action !== "skip" && g.writeRecord);
  for (const batch of chunks(records)) {
    await tx.legacyRecord.deleteMany({ where: { OR: batch.map(({ kind, g }) => ({ kind, legacyId: g.legacyId })) } });
    await tx.legacyRecord.createMany({
      data: batch.map(({ kind, g }) => ({ kind, legacyId: g.legacyId, targetId: g.id, snapshot: g.snapshot as unknown as Prisma.InputJsonValue, importedAt: now })),
    });
  }

  const counts = countPlan(plan);
  await tx.auditLog.create({
    data: { action: "legacy.import", meta: { ...counts, codesIssued: coded.length, passwordsSet, skipped: plan.skipped.length }, at: now },
    select: { id: true },
  });
  return { codesIssued: coded.length, passwordsSet };
}

export async function runImport(prisma: PrismaClient, data: LegacyExport, options: ImportOptions): Promise<ImportResult> {
  const now = options.now ?? new Date();
  const planOptions = { schoolAcademy: options.schoolAcademy, now };
  const first = planImport(data, await loadExisting(prisma, data, options.schoolAcademy), planOptions);
  if (!first.ok) return first;
  if (options.dryRun) {
    const plan = first.plan;
    return {
      ok: true, dryRun: true, plan, counts: countPlan(plan),
      codesIssued: plan.users.filter((u) => u.action !== "skip" && u.action !== "unchanged" && u.issueCode).length,
      passwordsSet: plan.users.filter((u) => u.setPassword && u.action !== "skip").length,
    };
  }
  const hashes = await hashAll(first.plan, passwordsOf(data), options.onProgress);
  try {
    return await prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`select pg_advisory_xact_lock(${LOCK_KEY})`;
        const again = planImport(data, await loadExisting(tx, data, options.schoolAcademy), planOptions);
        if (!again.ok) return again;
        const written = await write(tx, again.plan, hashes, options);
        return { ok: true as const, dryRun: false, plan: again.plan, counts: countPlan(again.plan), ...written };
      },
      { timeout: 10 * 60_000, maxWait: 60_000 },
    );
  } catch (error) {
    if (error instanceof PlanChanged) {
      return { ok: false, problems: [{ path: "(database)", message: "Manabiya's data changed while passwords were being hashed; nothing was written. Run the import again." }] };
    }
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { ok: false, problems: [{ path: "(database)", message: "an e-mail or id became taken in Manabiya during the import; nothing was written. Run the import again." }] };
    }
    throw error;
  }
}
