import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { e2eDb, makeSchool } from "./db";
import { signedInBrowsers } from "./browsers";

/**
 * Every control of the guide screen that changes the scene, pressed as a
 * teacher presses it: the signed-in student's screen shows each new scene
 * (its stream, not a reload). Next, previous, the jump list, end, and
 * starting again.
 */
const signedIn = signedInBrowsers();

test("guide controls: next, previous, jump, end and start again each move the student's screen", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = (
    await e2eDb().activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).map((s) => s.id);
  expect(scenes.length).toBeGreaterThanOrEqual(4);

  const open = async (email: string, path: string): Promise<Page> => {
    const page = await signedIn(browser, email);
    await page.goto(path);
    return page;
  };
  const teacherPage = await open(teacher.email!, `/dashboard/teacher/activities/guide/${activity.id}`);
  const kid = await open(students[0]!.email!, `/dashboard/student/activities/session/${activity.id}`);
  const live = kid.getByTestId("live-session");
  await expect(kid.getByTestId("standby")).toBeVisible();
  await expect(live).toHaveAttribute("data-transport", "stream");
  const console_ = teacherPage.getByTestId("guide-console");

  /** The teacher's screen and the student's both on scene `i` (1-based progress shown to the student). */
  const bothOn = async (i: number) => {
    await expect(console_).toHaveAttribute("data-scene-id", scenes[i]!);
    await expect(live).toHaveAttribute("data-status", "running");
    await expect(live).toHaveAttribute("data-scene-id", scenes[i]!);
    await expect(kid.getByTestId("progress")).toHaveText(`${i + 1} / ${scenes.length}`);
    await expect(kid.getByTestId("scene")).toBeVisible();
  };

  await teacherPage.getByTestId("start-session").click();
  await bothOn(0);
  await teacherPage.getByTestId("guide-next").click();
  await bothOn(1);
  await teacherPage.getByTestId("guide-next").click();
  await bothOn(2);
  await teacherPage.getByTestId("guide-previous").click();
  await bothOn(1);
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[3]!);
  await bothOn(3);
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[0]!);
  await bothOn(0);

  await teacherPage.getByTestId("end-session").click();
  await teacherPage.locator('dialog[open] [data-testid="confirm-ok"]').click();
  await expect(teacherPage.getByTestId("guide-idle")).toHaveAttribute("data-status", "ended");
  await expect(live).toHaveAttribute("data-status", "ended");
  await expect(kid.getByTestId("standby")).toBeVisible();

  // start again: a new session on the first scene, and the controls still move the student
  await teacherPage.getByTestId("start-session").click();
  await bothOn(0);
  await teacherPage.getByTestId("guide-next").click();
  await bothOn(1);

  // what the student followed is what the database holds
  const session = await e2eDb().guideSession.findFirstOrThrow({
    where: { activityId: activity.id, endedAt: null },
    select: { currentSceneId: true },
  });
  expect(session.currentSceneId).toBe(scenes[1]);
});
