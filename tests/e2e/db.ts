import { readFileSync } from "node:fs";
import { encode } from "next-auth/jwt";
import { SESSION_COOKIE } from "@/platform/auth/cookies";
import { createPrismaClient } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { hashPassword } from "@/platform/auth/password";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createSigninCode,
  createUser,
  uniqueTag,
} from "../../prisma/seed/factories";
import { E2E_DATABASE_URL } from "./config";

/**
 * Direct access to the e2e database for tests that need their own data
 * (made through the seed factories, so tests can run in parallel safely).
 */
let client: PrismaClient | undefined;
export function e2eDb(): PrismaClient {
  client ??= createPrismaClient(E2E_DATABASE_URL, 2);
  return client;
}

/** An activity's scenes in their default order, as stored. */
export const scenesOf = (activityId: string) =>
  e2eDb().activityScene.findMany({ where: { activityId }, orderBy: { position: "asc" } });

/** The secrets the e2e server uses (generated into .data/secrets.json by scripts/start.ts). */
export function e2eSecrets(): { AUTH_SECRET: string; SIGNIN_CODE_KEY: string } {
  return JSON.parse(readFileSync(".data/secrets.json", "utf8")) as { AUTH_SECRET: string; SIGNIN_CODE_KEY: string };
}

/** The sign-in code key the e2e server uses. */
export const signinCodeKey = (): string => e2eSecrets().SIGNIN_CODE_KEY;

/** A session cookie for `userId`, as the e2e server would set it after sign-in (for plain-HTTP tests). */
export async function sessionCookieFor(
  userId: string,
  role: "student" | "teacher" | "manager" = "student",
): Promise<string> {
  const { AUTH_SECRET } = e2eSecrets();
  return `${SESSION_COOKIE}=${await encode({ token: { sub: userId, role }, secret: AUTH_SECRET, salt: SESSION_COOKIE })}`;
}

export const TEST_PASSWORD = "test-password-123";
let hashed: Promise<string> | undefined;
export const testHash = () => (hashed ??= hashPassword(TEST_PASSWORD));

/** A fresh academy with one school, a teacher, a manager and `students` students, each with a sign-in code (in the e2e database unless `db` is given). */
export async function makeSchool(students = 1, db: PrismaClient = e2eDb()) {
  const tag = uniqueTag();
  const academy = await createAcademy(db, { name: `テスト学園${tag}`, nameKana: "てすとがくえん" });
  const school = await createSchool(db, {
    academyId: academy.id,
    name: `テスト中学校${tag}`,
    nameKana: "てすとちゅうがっこう",
  });
  const passwordHash = await testHash();
  const teacher = await createUser(db, {
    role: "teacher",
    email: `t-${tag}@test.example`,
    passwordHash,
    schoolId: school.id,
    name: "試験 先生",
    nameKana: "しけん せんせい",
  });
  const manager = await createUser(db, {
    role: "manager",
    email: `m-${tag}@test.example`,
    passwordHash,
    academyId: academy.id,
    name: "試験 管理",
    nameKana: "しけん かんり",
  });
  const kids = [];
  for (let n = 1; n <= students; n++) {
    const user = await createUser(db, {
      role: "student",
      email: `s${n}-${tag}@test.example`,
      passwordHash,
      schoolId: school.id,
      name: `試験 花子${n}`,
      nameKana: `しけん はなこ${n}`,
      nickname: null,
      student: { grade: 1, className: "1", number: n, counterbalanceGroup: n % 2 ? "A" : "B" },
    });
    const code = await createSigninCode(db, user.id, signinCodeKey());
    kids.push({ ...user, code });
  }
  return { tag, academy, school, teacher, manager, students: kids };
}

/**
 * The dissolving template (science-dissolve) in the school, in standby, with a key on its single-choice scene (the
 * third: 「すき通っていて…」, "clear", is correct), as the teacher would mark it.
 */
export async function keyedDissolve(schoolId: string) {
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes[2]!;
  const content = choice.content as { options: { id: string; label: string; correct?: boolean }[] };
  await e2eDb().activityScene.update({
    where: { id: choice.id },
    data: { content: { ...content, options: content.options.map((o) => ({ ...o, correct: o.id === "clear" })) } },
  });
  return { activity, scenes, choice };
}
