import { describe, expect, it } from "vitest";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { verifyPassword } from "@/platform/auth/password";
import { decryptCode, hashCode } from "@/platform/auth/signin-code-crypto";
import { readLibraryFiles } from "@/features/activities/server/library-bundle";
import { DEMO_IDS, DEMO_PASSWORD } from "../../../prisma/seed/demo";
import { seedWith } from "../../../prisma/seed/run";
import { freshDatabase, TEST_SIGNIN_CODE_KEY } from "../../../tests/support/helpers";

const TABLES = [
  "academies",
  "schools",
  "users",
  "student_details",
  "signin_codes",
  "activity_templates",
  "template_scenes",
  "activities",
  "activity_scenes",
  "activity_scene_orders",
  "responses",
  "library_entries",
  "library_bundle_loads",
] as const;

async function counts(prisma: PrismaClient) {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const rows = await prisma.$queryRawUnsafe<{ n: bigint }[]>(`select count(*) as n from "${t}"`);
    out[t] = Number(rows[0]!.n);
  }
  return out;
}

describe("demo seed", () => {
  const db = freshDatabase("seed");

  const seed = async () => {
    const seeded = await seedWith(db.prisma, { demo: true, signinCodeKey: TEST_SIGNIN_CODE_KEY, log: () => undefined });
    return { created: seeded.demo!.created, library: seeded.library.added };
  };

  it("creates the demo school, and a second run changes and duplicates nothing", async () => {
    const first = await seed();
    expect(first.created).toBeGreaterThan(0);
    expect(first.library).toBeGreaterThan(0);
    const before = await counts(db.prisma);
    const updatedBefore = await db.prisma.user.findMany({
      select: { id: true, updatedAt: true },
      orderBy: { id: "asc" },
    });
    const second = await seed();
    expect(second.created).toBe(0);
    expect(second.library).toBe(0);
    expect(await counts(db.prisma)).toEqual(before);
    expect(await db.prisma.user.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } })).toEqual(
      updatedBefore,
    );
    expect(before.users).toBe(2 + 3 + 40 + 5 + 3);
    expect(before.activity_templates).toBeGreaterThanOrEqual(3);
  });

  it("publishes every bundled library activity once in each demo academy's library", async () => {
    const files = await readLibraryFiles();
    for (const academyId of [DEMO_IDS.academy, DEMO_IDS.academy2]) {
      const entries = await db.prisma.libraryEntry.findMany({ where: { academyId }, select: { bundleId: true } });
      expect(entries.map((e) => e.bundleId).sort()).toEqual(files.map((f) => f.id).sort());
    }
  });

  it("has the accounts the README lists, in the right schools, with the demo password", async () => {
    const teacher = await db.prisma.user.findUniqueOrThrow({
      where: { email: "teacher@example.com" },
      select: {
        role: true,
        passwordHash: true,
        school: { select: { name: true, academy: { select: { name: true } } } },
      },
    });
    expect(teacher.role).toBe("teacher");
    expect(teacher.school?.name).toBe("デモ第一中学校");
    expect(teacher.school?.academy.name).toBe("デモ学園");
    expect(teacher.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(teacher.passwordHash!, DEMO_PASSWORD)).toBe(true);

    const students = await db.prisma.user.findMany({
      where: { school: { name: "デモ第一中学校" }, role: "student" },
      select: {
        email: true,
        student: { select: { grade: true, className: true, number: true, counterbalanceGroup: true } },
      },
      orderBy: { email: "asc" },
    });
    expect(students).toHaveLength(40);
    expect(students[0]!.email).toBe("student01@example.com");
    expect(students[39]!.email).toBe("student40@example.com");
    expect(students.map((s) => s.student?.number).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    const groups = students.map((s) => s.student?.counterbalanceGroup);
    expect(groups.filter((g) => g === "A")).toHaveLength(20);
    expect(groups.filter((g) => g === "B")).toHaveLength(20);

    const manager2 = await db.prisma.user.findUniqueOrThrow({
      where: { email: "manager2@example.com" },
      select: { academy: { select: { name: true, schools: { select: { name: true } } } } },
    });
    expect(manager2.academy?.name).toBe("別の学園");
    expect(manager2.academy?.schools.map((s) => s.name)).toEqual(["別の小学校"]);
    expect(await db.prisma.user.count({ where: { school: { name: "デモ第二中学校" }, role: "student" } })).toBe(5);
    expect(await db.prisma.user.count({ where: { school: { name: "別の小学校" }, role: "student" } })).toBe(3);
  });

  it("gives every student a sign-in code stored encrypted and found by its keyed hash", async () => {
    const codes = await db.prisma.signinCode.findMany({
      select: { codeHash: true, codeEncrypted: true, revokedAt: true },
    });
    expect(codes).toHaveLength(48);
    for (const c of codes) {
      const code = decryptCode(c.codeEncrypted, TEST_SIGNIN_CODE_KEY);
      expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(c.codeEncrypted).not.toContain(code);
      expect(hashCode(code, TEST_SIGNIN_CODE_KEY)).toBe(c.codeHash);
    }
  });

  it("copies activities into デモ第一中学校 in every mode, with responses", async () => {
    const activities = await db.prisma.activity.findMany({
      select: { mode: true, status: true, school: { select: { name: true } } },
    });
    expect(new Set(activities.map((a) => a.school.name))).toEqual(new Set(["デモ第一中学校"]));
    expect(new Set(activities.map((a) => a.mode))).toEqual(new Set(["standby", "guide", "self", "complete"]));
    expect(activities.some((a) => a.status === "archived")).toBe(true);
    expect(await db.prisma.response.count()).toBeGreaterThan(0);
    const sceneTypes = await db.prisma.activityScene.findMany({ distinct: ["type"], select: { type: true } });
    expect(sceneTypes.map((s) => s.type).sort()).toEqual([
      "free_text",
      "info",
      "multiple_choice",
      "scale",
      "single_choice",
      "two_step",
    ]);
  });
});
