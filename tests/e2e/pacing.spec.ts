import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";

const signedIn = signedInBrowsers();

test("pacing in self mode: students reach only the scenes the teacher opened, and the next one appears on their screen when it is opened", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scenes = await scenesOf(activity.id);

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await expect(teacherPage.getByTestId("pacing")).toHaveAttribute("data-open", "all");
  await teacherPage.getByTestId("pacing-select").selectOption("1");
  await expect(teacherPage.getByTestId("pacing")).toHaveAttribute("data-open", "1");

  const kid = await signedIn(browser, students[0]!.email!, { width: 768, height: 1024 });
  await kid.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await expect(kid.getByTestId("scene")).toHaveAttribute("data-scene-type", scenes[0]!.type);
  await kid.getByTestId("next").click();
  // the end of what is open: wait for the teacher
  await expect(kid.getByTestId("solo-wait")).toBeVisible();
  await expect(kid.getByTestId("solo-done")).toHaveCount(0);

  // the teacher opens the next scene: it appears without a reload
  await teacherPage.getByTestId("pacing-next").click();
  await expect(teacherPage.getByTestId("pacing")).toHaveAttribute("data-open", "2");
  await expect(kid.getByTestId("scene")).toHaveAttribute("data-scene-type", scenes[1]!.type, { timeout: 30_000 });
  await expect(kid.getByTestId("solo-wait")).toHaveCount(0);

  // all open again
  await teacherPage.getByTestId("pacing-select").selectOption("");
  await expect(teacherPage.getByTestId("pacing")).toHaveAttribute("data-open", "all");
  expect(
    (await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id }, select: { selfOpenScenes: true } }))
      .selfOpenScenes,
  ).toBeNull();
});
