/**
 * Factories shared by the demo seed (prisma/seed.ts) and the tests. Each takes
 * a Prisma client; ids may be fixed (the seed) or left to the database (tests).
 */
import { createHash, randomBytes } from "node:crypto";
import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
import { hashPassword } from "@/platform/auth/password";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { copyTemplateToSchoolTx } from "@/features/activities/server/template-copy";

type Db = PrismaClient | Prisma.TransactionClient;

/** A deterministic UUID (v5-shaped) from a key, for fixed seed rows. */
export function stableId(key: string): string {
  const h = createHash("sha256").update(`manabiya:${key}`).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A short random tag so parallel tests never collide. */
export function uniqueTag(): string {
  return randomBytes(5).toString("hex");
}

export async function createAcademy(db: Db, input: { id?: string; name: string; nameKana: string }) {
  return db.academy.create({ data: input, select: { id: true, name: true } });
}

export async function createSchool(db: Db, input: { id?: string; academyId: string; name: string; nameKana: string }) {
  return db.school.create({ data: input, select: { id: true, name: true, academyId: true } });
}

export interface StudentInput {
  grade: number;
  className: string;
  number: number;
  counterbalanceGroup?: string | null;
}

export interface UserInput {
  id?: string;
  role: "student" | "teacher" | "manager";
  email?: string | null;
  password?: string | null;
  /** Precomputed hash (lets the seed hash a shared password once). */
  passwordHash?: string | null;
  schoolId?: string | null;
  academyId?: string | null;
  name?: string | null;
  nameKana?: string | null;
  nickname?: string | null;
  disabled?: boolean;
  student?: StudentInput;
}

export async function createUser(db: Db, input: UserInput) {
  const passwordHash = input.passwordHash ?? (input.password ? await hashPassword(input.password) : null);
  const isManager = input.role === "manager";
  return db.user.create({
    data: {
      id: input.id,
      email: input.email?.toLowerCase() ?? null,
      role: input.role,
      groupType: isManager ? "academy" : "school",
      schoolId: isManager ? null : (input.schoolId ?? null),
      academyId: isManager ? (input.academyId ?? null) : null,
      passwordHash,
      name: input.name ?? null,
      nameKana: input.nameKana ?? null,
      nickname: input.nickname ?? null,
      disabled: input.disabled ?? false,
      student: input.student ? { create: input.student } : undefined,
    },
    select: { id: true, email: true, role: true, schoolId: true, academyId: true, name: true },
  });
}

/** Gives a student a live sign-in code and returns the code in clear (for printing or tests). */
export async function createSigninCode(db: Db, userId: string, key: string, expiresAt?: Date) {
  const sealed = sealNewCode(key);
  await db.signinCode.create({
    data: { userId, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted, expiresAt },
  });
  return sealed.code;
}

export async function createActivityFromTemplate(
  prisma: PrismaClient,
  input: {
    id?: string;
    templateId: string;
    schoolId: string;
    title?: string;
    mode?: "standby" | "guide" | "self" | "complete";
    status?: "active" | "archived";
  },
) {
  return prisma.$transaction(async (tx) => {
    const activity = await copyTemplateToSchoolTx(tx, input);
    if (!activity) throw new Error(`template not found: ${input.templateId}`);
    if (input.mode || input.status) {
      await tx.activity.update({
        where: { id: activity.id },
        data: {
          mode: input.mode,
          status: input.status,
          archivedAt: input.status === "archived" ? new Date() : undefined,
        },
      });
    }
    return activity;
  });
}

/** Stores one answer the way the answer API does (one row per user and scene). */
export async function createResponse(
  db: Db,
  input: {
    activityId: string;
    sceneId: string;
    userId: string;
    answer: Prisma.InputJsonValue;
    scenePosition: number;
    mode?: "guide" | "self";
    counterbalanceGroup?: string | null;
  },
) {
  return db.response.create({
    data: {
      ...input,
      mode: input.mode ?? "self",
      clientRevision: 1,
      idempotencyKey: randomBytes(12).toString("base64url"),
    },
    select: { id: true },
  });
}
