import { expect, test } from "@playwright/test";
import { signedInBrowsers } from "./browsers";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { e2eDb, makeSchool, scenesOf } from "./db";

const signedIn = signedInBrowsers();

test("timer: the class sees the countdown; at zero the answers close on the server too (409, the one in time stays); without closing, a later answer is kept and marked late", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(2);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes.find((s) => s.type === "single_choice")!;

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  const kids = [
    await signedIn(browser, students[0]!.email!, { width: 360, height: 740 }),
    await signedIn(browser, students[1]!.email!, { width: 768, height: 1024 }),
  ];
  await kids[0]!.goto(`/dashboard/student/activities/session/${activity.id}`);
  await kids[1]!.goto(`/dashboard/student/activities/session/${activity.id}?live=poll`);
  for (const kid of kids) await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", choice.id);

  // a custom time, closing at zero, set by keyboard
  await teacherPage.getByTestId("timer-seconds").fill("6");
  await teacherPage.getByTestId("timer-locks").check();
  await teacherPage.getByTestId("timer-start").focus();
  await teacherPage.keyboard.press("Enter");
  await expect(teacherPage.getByTestId("timer")).toBeVisible();
  for (const kid of kids) await expect(kid.getByTestId("timer")).toHaveAttribute("data-state", "running");

  // one answers in time
  await kids[0]!.locator("[data-option] input").first().check();
  await expect(kids[0]!.getByTestId("save-status")).toHaveAttribute("data-status", "saved");

  // zero: both see it, the choices close
  for (const kid of kids)
    await expect(kid.getByTestId("timer")).toHaveAttribute("data-state", "over", { timeout: 20_000 });
  await expect(kids[1]!.locator("[data-option] input").first()).toBeDisabled();
  await expect(teacherPage.getByTestId("timer")).toHaveAttribute("data-state", "over");

  // after zero and the grace for saves in flight, the server takes nothing new for the scene: a first answer and a change
  // of the one in time (a page whose countdown was tampered with, a slow network) are refused, and the one in time stays
  const afterZero = async (timeout: number) =>
    expect
      .poll(
        async () => {
          const s = await e2eDb().guideSession.findFirstOrThrow({
            where: { activityId: activity.id, endedAt: null },
            select: { timerEndsAt: true },
          });
          return s.timerEndsAt !== null && Date.now() > s.timerEndsAt.getTime() + 3000;
        },
        { timeout },
      )
      .toBe(true);
  await afterZero(20_000);
  const option = (choice.content as { options: { id: string }[] }).options[1]!.id;
  const post = (kid: number, clientRevision: number, key: string) =>
    kids[kid]!.evaluate(
      async ([activityId, sceneId, choice, clientRevision, idempotencyKey]) => {
        const res = await fetch("/api/v1/answers", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            activityId,
            sceneId,
            answer: { choice },
            clientRevision: Number(clientRevision),
            idempotencyKey,
            mode: "guide",
          }),
        });
        return { status: res.status, body: await res.json() };
      },
      [activity.id, choice.id, option, String(clientRevision), key],
    );
  expect(await post(1, 1, "late-after-zero-1")).toEqual({
    status: 409,
    body: { ok: false, status: 409, code: "CONFLICT", reason: "timeUp" },
  });
  expect(await post(0, 99, "late-after-zero-0")).toMatchObject({ status: 409, body: { reason: "timeUp" } });
  const onTime = await e2eDb().response.findMany({
    where: { sceneId: choice.id },
    select: { userId: true, late: true, answer: true },
  });
  expect(onTime).toEqual([
    {
      userId: students[0]!.id,
      late: false,
      answer: { choice: (choice.content as { options: { id: string }[] }).options[0]!.id },
    },
  ]);

  // the scene the countdown closed: the teacher opens it again in one step (no "stop the timer" to guess), and the class can answer
  await expect(teacherPage.getByTestId("timer-stop")).toHaveCount(0);
  await expect(teacherPage.getByTestId("timer-unlock")).toHaveText("締め切りを解除");
  await teacherPage.getByTestId("timer-unlock").click();
  for (const kid of kids) await expect(kid.getByTestId("timer")).toHaveCount(0);
  await expect(kids[1]!.locator("[data-option] input").first()).toBeEnabled();

  // a countdown that does not close answers: an answer after its zero is kept, marked late; the one in time is not
  await teacherPage.getByTestId("timer-seconds").fill("5");
  await teacherPage.getByTestId("timer-locks").uncheck();
  await teacherPage.getByTestId("timer-start").click();
  for (const kid of kids)
    await expect(kid.getByTestId("timer")).toHaveAttribute("data-state", "over", { timeout: 20_000 });
  await afterZero(20_000);
  expect(await post(1, 1, "late-after-zero-2")).toMatchObject({ status: 200, body: { ok: true } });
  const rows = await e2eDb().response.findMany({
    where: { sceneId: choice.id },
    select: { userId: true, late: true, answer: true },
  });
  expect(rows.find((r) => r.userId === students[1]!.id)).toMatchObject({ late: true, answer: { choice: option } });
  expect(rows.find((r) => r.userId === students[0]!.id)).toMatchObject({ late: false });

  // the teacher sees which answer came late, on the student's answers and in the research export
  await teacherPage.goto(`/dashboard/teacher/activities/response/${activity.id}/${students[1]!.id}`);
  await expect(teacherPage.getByText("時間切れの後")).toBeVisible();
  const csv = await teacherPage.evaluate(
    async (id) => (await fetch(`/api/v1/exports/${id}/responses`)).text(),
    activity.id,
  );
  expect(csv.split("\r\n")[0]).toContain("時間切れの後に回答");
  // the late column, then the teacher's mark and comment and the academic year end each row (quoted JSON before them may hold commas)
  const lateOf = (userId: string) =>
    csv
      .split("\r\n")
      .find((line) => line.includes(userId) && line.includes(choice.id))
      ?.split(",")
      .at(-4);
  expect([lateOf(students[1]!.id), lateOf(students[0]!.id)]).toEqual(["1", "0"]);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);

  // the teacher stops the timer: the countdown goes away everywhere
  await teacherPage.getByTestId("timer-stop").click();
  for (const kid of kids) await expect(kid.getByTestId("timer")).toHaveCount(0);
  const audit = await e2eDb().auditLog.findMany({
    where: { targetId: activity.id, action: { startsWith: "guide.timer" } },
    orderBy: { id: "asc" },
    select: { action: true },
  });
  expect(audit.map((a) => a.action)).toEqual(["guide.timer", "guide.timer.stop", "guide.timer", "guide.timer.stop"]);
});
