import { expect, test } from "@playwright/test";
import { signedInBrowsers } from "./browsers";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText } from "./helpers";
import { e2eDb, makeSchool, scenesOf } from "./db";

const signedIn = signedInBrowsers();

test("eyes on me: the teacher blanks every student screen with a message in the student's language, a reload stays paused, and typed text is still there after", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(2);
  await e2eDb().user.update({ where: { id: students[1]!.id }, data: { displayLanguage: "ja-kana" } });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const free = scenes.find((s) => s.type === "free_text")!;

  const teacherPage = await signedIn(browser, teacher.email!, { width: 1280, height: 800 });
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(free.id);
  // one student on a phone over the event stream, one on a tablet polling (as behind a buffering proxy)
  const kids = [
    await signedIn(browser, students[0]!.email!, { width: 360, height: 740 }),
    await signedIn(browser, students[1]!.email!, { width: 768, height: 1024 }),
  ];
  await kids[0]!.goto(`/dashboard/student/activities/session/${activity.id}`);
  await kids[1]!.goto(`/dashboard/student/activities/session/${activity.id}?live=poll`);
  for (const kid of kids) await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", free.id);
  await kids[1]!.locator("textarea").fill("とけて見えなくなるけど");

  // pause: a keyboard press on the teacher's control
  const pause = teacherPage.getByTestId("toggle-pause");
  await expect(pause).toHaveAttribute("aria-pressed", "false");
  await pause.focus();
  await teacherPage.keyboard.press("Enter");
  await expect(pause).toHaveAttribute("aria-pressed", "true");
  // the first student reads with furigana (the default for students), the second in kana
  await expect.poll(() => baseText(kids[0]!.getByTestId("paused"))).toContain("先生の方を見てください");
  await expect(kids[0]!.getByTestId("paused").locator("rt").first()).toHaveText("せん");
  await expect(kids[1]!.getByTestId("paused")).toContainText("せんせいのほうをみてください");
  for (const kid of kids) await expect(kid.locator("textarea")).toBeHidden();

  // a student who reloads (or reconnects) during the pause lands on the pause, not on the scene
  await kids[0]!.reload();
  await expect(kids[0]!.getByTestId("paused")).toBeVisible();
  await expect(kids[0]!.locator("textarea")).toBeHidden();

  // back: every screen shows the scene again, with what was typed
  await pause.click();
  await expect(pause).toHaveAttribute("aria-pressed", "false");
  for (const kid of kids) await expect(kid.getByTestId("paused")).toHaveCount(0);
  await expect(kids[1]!.locator("textarea")).toHaveValue("とけて見えなくなるけど");
  await expect(kids[0]!.locator("textarea")).toBeVisible();
  const audit = await e2eDb().auditLog.findMany({
    where: { targetId: activity.id, action: { in: ["guide.pause", "guide.resume"] } },
    orderBy: { id: "asc" },
    select: { action: true },
  });
  expect(audit.map((a) => a.action)).toEqual(["guide.pause", "guide.resume"]);
});
