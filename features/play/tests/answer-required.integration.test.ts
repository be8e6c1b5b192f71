/**
 * Required means required in every mode: a two-step
 * answer without its reason is refused with 400 requiredInput in a live
 * (guide) session as in self mode, and nothing is stored.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/platform/db";
import { endSession, goToScene, startSession } from "@/features/play/server/session-commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

let ctx: { schoolId: AuthorizedSchoolId; actorId: string };
let student: string;
let activity: string;
let twoStep: string;

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `Q${tag}`, nameKana: "きゅー" });
  const school = (await createSchool(db(), { academyId: academy.id, name: `Q${tag}`, nameKana: "きゅー" })).id;
  student = (
    await createUser(db(), {
      role: "student",
      email: `rq-${tag}@t.example`,
      schoolId: school,
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  const teacher = (await createUser(db(), { role: "teacher", email: `rqt-${tag}@t.example`, schoolId: school })).id;
  ctx = { schoolId: school as AuthorizedSchoolId, actorId: teacher };
  activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, mode: "standby" })
  ).id;
  twoStep = (
    await db().activityScene.findFirstOrThrow({
      where: { activityId: activity, type: "two_step" },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).id;
});
afterAll(async () => {
  await db().$disconnect();
});

it("a live two-step answer without its reason: 400 requiredInput, nothing stored; with it: stored", async () => {
  expect(await startSession(ctx, activity)).toMatchObject({ ok: true });
  expect(await goToScene(ctx, activity, twoStep)).toMatchObject({ ok: true });
  const save = (reason: string, clientRevision: number) =>
    saveAnswer(student, {
      activityId: activity,
      sceneId: twoStep,
      answer: { first: "same", second: "sure", reason },
      clientRevision,
      idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
      mode: "guide",
    });
  for (const reason of ["", "   ", "\u3000\n"])
    expect(await save(reason, 1)).toEqual({ ok: false, status: 400, code: "VALIDATION", reason: "requiredInput" });
  expect(await db().response.count({ where: { activityId: activity } })).toBe(0);
  expect(await save("重さは変わらないから", 2)).toMatchObject({ ok: true, revision: 2 });
  expect(
    await db().response.findFirstOrThrow({ where: { activityId: activity }, select: { mode: true, answer: true } }),
  ).toEqual({ mode: "guide", answer: { first: "same", second: "sure", reason: "重さは変わらないから" } });
  expect(await endSession(ctx, activity)).toMatchObject({ ok: true });
});
