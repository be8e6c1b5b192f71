import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, createUser } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf, testHash } from "./db";
import { pickClass, sceneOf } from "./guide";

const signedIn = signedInBrowsers();
const sessionOf = async (page: Page) => (await page.getByTestId("guide-console").getAttribute("data-session-id")) ?? "";

test("several classes at once: two teachers run one activity in 1組 and 2組; a pause in 1組 leaves 2組 working; answers land in their own class's grid and projector", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { tag, teacher, school, students } = await makeSchool(2);
  const [a, b] = students as [(typeof students)[number], (typeof students)[number]];
  await e2eDb().studentDetail.update({ where: { userId: b.id }, data: { className: "2", number: 1 } });
  const second = await createUser(e2eDb(), {
    role: "teacher",
    email: `t2-${tag}@test.example`,
    passwordHash: await testHash(),
    schoolId: school.id,
    name: "二人目 先生",
    nameKana: "ふたりめ せんせい",
  });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes[2]!;

  // the first teacher starts it for 1組
  const one = await signedIn(browser, teacher.email!);
  await one.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await pickClass(one, "1:1");
  await one.getByTestId("start-session").click();
  await expect(one.getByTestId("session-class")).toHaveAttribute("data-class", "1:1");
  await expect(one).toHaveURL(/[?&]session=/);
  const s1 = await sessionOf(one);
  await one.getByTestId("guide-jump").selectOption(choice.id);
  await expect(one.getByTestId("guide-console")).toHaveAttribute("data-scene-id", choice.id);

  // the second teacher opens the same activity while 1組's runs, and starts it for 2組 beside it
  const two = await signedIn(browser, second.email!);
  await two.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await two.getByTestId("start-other").locator("summary").click();
  await pickClass(two, "1:2");
  await two.getByTestId("start-session").click();
  await expect(two.getByTestId("session-class")).toHaveAttribute("data-class", "1:2");
  await expect.poll(() => sessionOf(two)).not.toBe(s1);
  const s2 = await sessionOf(two);
  expect(s2).not.toBe("");
  // both sessions are listed: class and who started it; the shown one marked
  const listed = two.getByTestId("running-session");
  await expect(listed).toHaveCount(2);
  await expect(two.locator(`[data-testid="running-session"][data-session-id="${s1}"]`)).toContainText("試験 先生");
  await expect(
    two.locator(`[data-testid="running-session"][data-session-id="${s2}"] [data-testid="running-session-current"]`),
  ).toBeVisible();
  // 1組's session goes on where it was
  await expect(one.getByTestId("guide-console")).toHaveAttribute("data-scene-id", choice.id);
  await two.getByTestId("guide-jump").selectOption(choice.id);
  await expect(two.getByTestId("guide-console")).toHaveAttribute("data-scene-id", choice.id);

  const kidA = await signedIn(browser, a.email!, { width: 768, height: 1024 });
  const kidB = await signedIn(browser, b.email!, { width: 768, height: 1024 });
  await kidA.goto(`/dashboard/student/activities/session/${activity.id}`);
  await kidB.goto(`/dashboard/student/activities/session/${activity.id}`);
  await expect(sceneOf(kidA)).toHaveAttribute("data-scene-id", choice.id);
  await expect(sceneOf(kidB)).toHaveAttribute("data-scene-id", choice.id);

  // eyes on me in 1組: 1組's student is paused, 2組's keeps the scene and answers
  await one.getByTestId("toggle-pause").click();
  await expect(one.getByTestId("toggle-pause")).toHaveAttribute("aria-pressed", "true");
  await expect(kidA.getByTestId("paused")).toBeVisible();
  await expect(two.getByTestId("toggle-pause")).toHaveAttribute("aria-pressed", "false");
  await kidB.locator('[data-option="cloudy"] input').check();
  await expect(kidB.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await expect(kidB.getByTestId("paused")).toHaveCount(0);

  // each teacher's grid lists only their class; the answer lands in 2組's session
  await expect(two.getByTestId("grid-student")).toHaveCount(1);
  await expect(two.locator(`[data-testid="grid-student"][data-student-id="${b.id}"]`)).toHaveAttribute(
    "data-state",
    "answered",
  );
  await expect(one.getByTestId("grid-student")).toHaveCount(1);
  await expect(one.locator(`[data-testid="grid-student"][data-student-id="${a.id}"]`)).not.toHaveAttribute(
    "data-state",
    "answered",
  );
  await expect(one.getByTestId("live-counts")).toHaveAttribute("data-answered", "0");
  await expect(two.getByTestId("live-counts")).toHaveAttribute("data-answered", "1");
  const saved = await e2eDb().response.findFirstOrThrow({
    where: { userId: b.id, sceneId: choice.id },
    select: { sessionId: true },
  });
  expect(saved.sessionId).toBe(s2);

  // 1組's projector shows 1組's answers only: none yet, while 2組's has one
  await one.getByTestId("toggle-results").click();
  const [popup] = await Promise.all([one.waitForEvent("popup"), one.getByTestId("projector-open").click()]);
  const link = await one.getByTestId("projector-link").inputValue();
  await popup.close();
  const projector = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await projector.goto(link);
  await expect(projector.getByTestId("projector-live")).toHaveAttribute("data-scene-id", choice.id);
  const bars = projector.getByTestId("projector-results");
  await expect(bars).toBeVisible();
  await expect(bars.locator('[data-option="cloudy"]')).toHaveAttribute("data-count", "0");
  // resume 1組: its student answers; 1組's projector counts it, 2組's answer still not
  await one.getByTestId("toggle-pause").click();
  await expect(kidA.getByTestId("paused")).toHaveCount(0);
  await kidA.locator('[data-option="clear"] input').check();
  await expect(kidA.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await expect(bars.locator('[data-option="clear"]')).toHaveAttribute("data-count", "1");
  await expect(bars.locator('[data-option="cloudy"]')).toHaveAttribute("data-count", "0");

  // ending 1組's session ends only it: 2組's student still follows theirs
  await one.getByTestId("end-session").click();
  await one.locator('dialog[open] [data-testid="confirm-ok"]').click();
  await expect(one.getByTestId("guide-idle")).toHaveAttribute("data-status", "ended");
  await expect(sceneOf(kidA)).not.toHaveAttribute("data-status", "running");
  await expect(sceneOf(kidB)).toHaveAttribute("data-status", "running");
  await expect(sceneOf(kidB)).toHaveAttribute("data-scene-id", choice.id);
  await expect(two.getByTestId("guide-console")).toHaveAttribute("data-session-id", s2);
  expect(await e2eDb().guideSession.count({ where: { activityId: activity.id, endedAt: null } })).toBe(1);
});
