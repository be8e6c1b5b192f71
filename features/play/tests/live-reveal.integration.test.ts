/**
 * 「正解を見せる」 (features/play/server/session-commands.ts setSceneRevealed, live-feedback-commands.ts): the
 * student state says only whether the answer is shown; a student's own ○/× and the key come to them alone, and
 * only while the teacher shows the current scene's; a scene without a key cannot be shown; moving on hides it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { goToScene, setSceneRevealed, startSession } from "@/features/play/server/session-commands";
import { liveFeedbackFor } from "@/features/play/server/live-feedback-commands";
import { liveStateForStudent } from "@/features/play/server/state-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createUser } from "../../../prisma/seed/factories";
import { keyedDissolve, twoSchools } from "../../../tests/support/two-schools";

const ids = {} as {
  school: string;
  other: string;
  teacher: string;
  right: string;
  wrong: string;
  silent: string;
  foreign: string;
  activity: string;
  choice: string;
  text: string;
};
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
const feedback = (user: string, schoolId = ids.school, sceneId = ids.choice) =>
  liveFeedbackFor({ id: user, schoolId }, ids.activity, sceneId);

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const { activity, scenes, choice } = await keyedDissolve(school.id);
  const user = (role: "teacher" | "student", name: string, schoolId = school.id) =>
    createUser(db(), { role, email: `rv-${name}-${tag}@t.example`, schoolId }).then((u) => u.id);
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    activity: activity.id,
    choice: choice.id,
    text: scenes[4]!.id,
    teacher: await user("teacher", "t"),
    right: await user("student", "r"),
    wrong: await user("student", "w"),
    silent: await user("student", "s"),
    foreign: await user("student", "f", other.id),
  });
  for (const [userId, choiceId] of [
    [ids.right, "clear"],
    [ids.wrong, "cloudy"],
  ] as const) {
    await db().response.create({
      data: {
        activityId: ids.activity,
        sceneId: ids.choice,
        userId,
        answer: { choice: choiceId },
        scenePosition: 2,
        mode: "guide",
        clientRevision: 1,
        idempotencyKey: `${userId}-1`,
      },
    });
  }
});
afterAll(async () => {
  await db().$disconnect();
});

describe("正解を見せる", () => {
  it("sends nobody the key before; then each student their own verdict and the key; hidden and moving on take it away", async () => {
    expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    expect(await goToScene(ctx(), ids.activity, ids.choice)).toMatchObject({ ok: true });
    const before = await liveStateForStudent(ids.activity, null);
    expect(before).toMatchObject({ sceneId: ids.choice, revealed: false });
    expect(JSON.stringify(before)).not.toContain("correct");
    expect(await feedback(ids.right)).toBeNull();

    // another school's teacher cannot show it
    const foreign = { schoolId: ids.other as AuthorizedSchoolId, actorId: ids.teacher };
    expect(await setSceneRevealed(foreign, ids.activity, true)).toMatchObject({ ok: false });
    expect(await setSceneRevealed(ctx(), ids.activity, true)).toEqual({ ok: true, data: null });
    const after = await liveStateForStudent(ids.activity, null);
    expect(after).toMatchObject({ revealed: true, locked: true });
    expect(JSON.stringify(after)).not.toContain("correct");

    expect(await feedback(ids.right)).toEqual({ sceneId: ids.choice, correct: ["clear"], verdict: "correct" });
    expect(await feedback(ids.wrong)).toEqual({ sceneId: ids.choice, correct: ["clear"], verdict: "incorrect" });
    expect(await feedback(ids.silent)).toEqual({ sceneId: ids.choice, correct: ["clear"], verdict: null });
    // another school's student, and a scene that is not the current one: nothing
    expect(await feedback(ids.foreign, ids.other)).toBeNull();
    expect(await feedback(ids.right, ids.school, ids.text)).toBeNull();
    // seeing it made their answer final
    const shown = await db().response.findFirstOrThrow({
      where: { userId: ids.right, sceneId: ids.choice },
      select: { revealedAt: true },
    });
    expect(shown.revealedAt).not.toBeNull();

    expect(await setSceneRevealed(ctx(), ids.activity, false)).toEqual({ ok: true, data: null });
    expect(await liveStateForStudent(ids.activity, null)).toMatchObject({ revealed: false });
    expect(await feedback(ids.right)).toBeNull();

    expect(await setSceneRevealed(ctx(), ids.activity, true)).toMatchObject({ ok: true });
    expect(await goToScene(ctx(), ids.activity, ids.text)).toMatchObject({ ok: true });
    expect(await liveStateForStudent(ids.activity, null)).toMatchObject({ sceneId: ids.text, revealed: false });
    // coming back to the scene: unrevealed until the teacher shows it again
    expect(await goToScene(ctx(), ids.activity, ids.choice)).toMatchObject({ ok: true });
    expect(await liveStateForStudent(ids.activity, null)).toMatchObject({ sceneId: ids.choice, revealed: false });
    expect(await goToScene(ctx(), ids.activity, ids.text)).toMatchObject({ ok: true });
    // a free-text scene has no key: nothing to show
    expect(await setSceneRevealed(ctx(), ids.activity, true)).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await liveStateForStudent(ids.activity, null)).toMatchObject({ revealed: false });
  });
});
