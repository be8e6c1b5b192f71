import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { type LtiPlatformEmulator, SCORE_TYPE, scoreProblems, startLtiPlatform } from "../support/lti-platform";
import { giveSourcedId, INSTRUCTOR, LEARNER, ltiLaunchHint, registerPlatform } from "../support/lti-setup";
import { BASE_URL } from "./config";
import { e2eDb, keyedDissolve, makeSchool, TEST_PASSWORD } from "./db";
import { chooseLanguage, expectAccessible, expectNotification, signInAs } from "./helpers";

/**
 * The platform's services (features/lti/README.md "Scores and members") in the running server, against the platform
 * emulator (tests/support/lti-platform.ts; on 127.0.0.1, another site than the app): a student launched with a line
 * item finishes the activity and the emulator receives the score (its token endpoint having verified our client
 * assertion against our published keys); the teacher marks a launched student's free text and the emulator receives
 * the score with the mark; a teacher launched from a context naming its members compares it with our
 * class and sees who is missing on either side.
 */
let platform: LtiPlatformEmulator;
test.beforeEach(async () => {
  platform = await startLtiPlatform({ toolUrl: BASE_URL });
});
test.afterEach(async () => {
  await platform.close();
});

const register = (academyId: string) => registerPlatform(e2eDb(), platform, academyId);
const rosterId = (userId: string) => giveSourcedId(e2eDb(), userId);

async function launch(page: Page, sub: string, activityId: string, roles: string[], claims: Record<string, unknown>) {
  await page.goto(platform.startUrl(ltiLaunchHint(platform, BASE_URL, { sub, activityId, roles, claims })));
}

test("a student launched with a line item finishes the activity; the portal receives the score (AGS), and the manager's card counts it sent", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { academy, manager, school, students } = await makeSchool(1);
  await register(academy.id);
  const { activity, choice } = await keyedDissolve(school.id);
  await e2eDb().activity.update({ where: { id: activity.id }, data: { mode: "self" } });
  // one keyed scene: answering it finishes the activity
  await e2eDb().activityScene.deleteMany({ where: { activityId: activity.id, id: { not: choice.id } } });
  const sub = await rosterId(students[0]!.id);
  const tabletContext = await browser.newContext();
  const tablet = await tabletContext.newPage();
  await launch(tablet, sub, activity.id, [LEARNER], platform.serviceClaims({ lineitem: "unit-1" }));
  await expect(tablet).toHaveURL(`/dashboard/student/activities/solo/${activity.id}`);
  await tablet.getByRole("radiogroup").getByRole("radio").first().check();
  await expect(tablet.getByTestId("save-status")).toHaveAttribute("data-status", "saved");

  // the queue posts the score within seconds; a user would wait as long for the portal's grade book
  await expect.poll(() => platform.scores.length, { timeout: 60_000 }).toBe(1);
  const [score] = platform.scores;
  expect(score!.lineitem).toBe("unit-1");
  expect(score!.contentType).toBe(SCORE_TYPE);
  expect(score!.status).toBe(200);
  expect(scoreProblems(score!.body)).toEqual([]);
  expect(score!.body).toEqual({
    userId: sub,
    scoreGiven: 1,
    scoreMaximum: 1,
    activityProgress: "Completed",
    gradingProgress: "FullyGraded",
    timestamp: expect.any(String),
  });
  // the token was asked for with our client assertion, for the score scope only
  expect(platform.tokenRequests).toEqual([
    { granted: true, scope: "https://purl.imsglobal.org/spec/lti-ags/scope/score" },
  ]);
  await tabletContext.close();

  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/schools");
  await expect(page.getByTestId("lti-score-counts")).toHaveAttribute("data-sent", "1");
  await expect(page.getByTestId("lti-score-counts")).toHaveAttribute("data-failed", "0");
  await expectAccessible(page);
  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const) {
    await chooseLanguage(page, lang);
    await page.getByTestId("lti-scores").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/lti-scores-1280-${lang}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("lti-scores").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/lti-scores-phone-ja-kana.png" });
});

test("the teacher marks a launched student's free-text answer; the portal receives a new score counting the mark (部分正解: half a point), FullyGraded", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { academy, manager, teacher, school, students } = await makeSchool(1);
  await register(academy.id);
  const { activity, scenes, choice } = await keyedDissolve(school.id);
  await e2eDb().activity.update({ where: { id: activity.id }, data: { mode: "self" } });
  // the keyed scene, then a free text the teacher marks
  const text = scenes.find((s) => s.type === "free_text")!;
  await e2eDb().activityScene.deleteMany({ where: { activityId: activity.id, id: { notIn: [choice.id, text.id] } } });
  await e2eDb().studentDetail.update({ where: { userId: students[0]!.id }, data: { counterbalanceGroup: null } });
  const sub = await rosterId(students[0]!.id);
  const tabletContext = await browser.newContext();
  const tablet = await tabletContext.newPage();
  await launch(tablet, sub, activity.id, [LEARNER], platform.serviceClaims({ lineitem: "unit-2" }));
  await expect(tablet).toHaveURL(`/dashboard/student/activities/solo/${activity.id}`);
  await tablet.getByRole("radiogroup").getByRole("radio").first().check();
  await expect(tablet.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await tablet.getByTestId("next").click();
  await expect(tablet.getByTestId("scene")).toHaveAttribute("data-scene-type", "free_text");
  await tablet.locator("textarea.answer-text").fill("とけて見えなくなった");
  await expect(tablet.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  // finished: the keyed scene counts, the free text waits for the teacher
  await expect.poll(() => platform.scores.length, { timeout: 60_000 }).toBe(1);
  expect(platform.scores[0]!.body).toMatchObject({
    userId: sub,
    scoreGiven: 1,
    scoreMaximum: 1,
    gradingProgress: "PendingManual",
  });
  await tabletContext.close();

  const staff = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await staff.newPage();
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/teacher/activities/response/${activity.id}/${students[0]!.id}`);
  const form = page.locator(`[data-scene-id="${text.id}"]`).getByTestId("mark-form");
  await form.getByTestId("mark-partly").check();
  await form.getByTestId("mark-save").click();
  await expectNotification(page, "採点を保存しました");
  await expect(form).toHaveAttribute("data-verdict", "partly");

  // the queue posts the new score within seconds, as it did the first
  await expect.poll(() => platform.scores.length, { timeout: 60_000 }).toBe(2);
  const mark = await e2eDb().responseMark.findFirstOrThrow({
    where: { response: { userId: students[0]!.id, sceneId: text.id } },
  });
  const score = platform.scores[1]!;
  expect(score.lineitem).toBe("unit-2");
  expect(score.status).toBe(200);
  expect(scoreProblems(score.body)).toEqual([]);
  expect(score.body).toEqual({
    userId: sub,
    scoreGiven: 1.5,
    scoreMaximum: 2,
    activityProgress: "Completed",
    gradingProgress: "FullyGraded",
    timestamp: mark.updatedAt.toISOString(),
  });
  await staff.close();

  // the manager's card counts the link's one score, sent
  const managerContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const managerPage = await managerContext.newPage();
  await signInAs(managerPage, manager.email!, TEST_PASSWORD);
  await managerPage.goto("/dashboard/manager/schools");
  await expect(managerPage.getByTestId("lti-score-counts")).toHaveAttribute("data-sent", "1");
  await expect(managerPage.getByTestId("lti-score-counts")).toHaveAttribute("data-waiting", "0");
  await expect(managerPage.getByTestId("lti-score-counts")).toHaveAttribute("data-failed", "0");
  await managerContext.close();
});

test("a teacher launched from a context naming its members compares it with our class (NRPS): who is missing on either side; a refusal is said clearly", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { academy, school, teacher, students } = await makeSchool(2);
  await register(academy.id);
  const context = `class-${randomUUID()}`;
  await e2eDb().rosterClass.create({
    data: { schoolId: school.id, sourcedId: context, title: "1年1組", grade: 1, className: "1" },
  });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const [inBoth, onlyOurs] = [await rosterId(students[0]!.id), await rosterId(students[1]!.id)];
  const stranger = randomUUID();
  // three learners over two pages (Link rel="next"), and the teacher, who is no learner
  platform.setMembers(context, [
    { user_id: inBoth, roles: [LEARNER], status: "Active", name: "両方 いる" },
    { user_id: stranger, roles: [LEARNER], status: "Active", name: "ポータル だけ" },
    { user_id: randomUUID(), roles: [LEARNER], status: "Inactive" },
    { user_id: await rosterId(teacher.id), roles: [INSTRUCTOR], status: "Active" },
  ]);
  const sub = (await e2eDb().user.findUniqueOrThrow({ where: { id: teacher.id } })).sourcedId!;
  await page.setViewportSize({ width: 1280, height: 720 });
  await launch(page, sub, activity.id, [INSTRUCTOR], platform.serviceClaims({ context }));
  await expect(page).toHaveURL(`/dashboard/teacher/activities/guide/${activity.id}`);
  await page.getByTestId("members-link").click();
  await expect(page).toHaveURL(`/dashboard/teacher/activities/members/${activity.id}`);
  await expect(page.getByTestId("members-class")).toHaveAttribute("data-matched", "1");
  await expect(page.getByTestId("members-portal-only").locator("li")).toHaveCount(1);
  await expect(page.getByTestId("members-portal-only").locator(`li[data-sourced-id="${stranger}"]`)).toBeVisible();
  await expect(page.getByTestId("members-ours-only").locator("li")).toHaveCount(1);
  await expect(page.getByTestId("members-ours-only").locator(`li[data-sourced-id="${onlyOurs}"]`)).toContainText(
    students[1]!.name!,
  );
  expect(platform.tokenRequests).toEqual([
    { granted: true, scope: "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly" },
  ]);
  await expectAccessible(page);
  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const) {
    await chooseLanguage(page, lang);
    await page.screenshot({ path: `test-results/lti-members-1280-${lang}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/lti-members-phone-ja-kana.png" });

  platform.setMembers(context, [], true);
  await page.reload();
  await expect(page.getByTestId("members-error")).toHaveAttribute("data-reason", "refused");
  await page.screenshot({ path: "test-results/lti-members-refused-phone-ja-kana.png" });
  await chooseLanguage(page, "ja");
  await expect(page.getByTestId("members-error")).toContainText("ポータルが名簿を見せてくれませんでした");
});
