import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setActorType } from "@/features/activities/server/commands";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createResponse, createUser } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

let school: AuthorizedSchoolId;
let other: AuthorizedSchoolId;
let teacher: string;
let student: string;

const actorOf = async (id: string) =>
  (await db().activity.findUniqueOrThrow({ where: { id }, select: { actorType: true } })).actorType;

beforeAll(async () => {
  const world = await twoSchools();
  const tag = world.tag;
  school = world.school.id as AuthorizedSchoolId;
  other = world.other.id as AuthorizedSchoolId;
  teacher = (await createUser(db(), { role: "teacher", email: `at-${tag}@t.example`, schoolId: school, name: "先生" }))
    .id;
  student = (
    await createUser(db(), {
      role: "student",
      email: `as-${tag}@t.example`,
      schoolId: school,
      name: "生徒",
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
});
afterAll(async () => {
  await db().$disconnect();
});

describe("who answers an activity (the editor's actor type)", () => {
  it("changes a standby activity without answers, both ways, and audits it", async () => {
    const { id } = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: school,
      mode: "standby",
    });
    expect(await setActorType({ schoolId: school, actorId: teacher }, id, "teacher")).toEqual({ ok: true, data: null });
    expect(await actorOf(id)).toBe("teacher");
    expect(await setActorType({ schoolId: school, actorId: teacher }, id, "student")).toEqual({ ok: true, data: null });
    expect(await actorOf(id)).toBe("student");
    const logs = await db().auditLog.findMany({
      where: { targetId: id, action: "activity.actorType" },
      select: { meta: true },
    });
    expect(logs.map((l) => l.meta)).toEqual(
      expect.arrayContaining([
        { from: "student", to: "teacher" },
        { from: "teacher", to: "student" },
      ]),
    );
  });

  it("refuses once the activity has answers: they were given by students", async () => {
    const { id } = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: school,
      mode: "complete",
    });
    const scene = await db().activityScene.findFirstOrThrow({
      where: { activityId: id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    await createResponse(db(), { activityId: id, sceneId: scene.id, userId: student, scenePosition: 0, answer: {} });
    expect(await setActorType({ schoolId: school, actorId: teacher }, id, "teacher")).toMatchObject({
      ok: false,
      code: "CONFLICT",
    });
    expect(await actorOf(id)).toBe("student");
  });

  it("refuses while students can answer it (self-paced or live)", async () => {
    for (const mode of ["self", "guide"] as const) {
      const { id } = await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, mode });
      expect(await setActorType({ schoolId: school, actorId: teacher }, id, "teacher")).toMatchObject({
        ok: false,
        code: "CONFLICT",
      });
      expect(await actorOf(id)).toBe("student");
    }
  });

  it("another school's activity is not found and stays as it was", async () => {
    const { id } = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: school,
      mode: "standby",
    });
    expect(await setActorType({ schoolId: other, actorId: teacher }, id, "teacher")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await actorOf(id)).toBe("student");
  });
});
