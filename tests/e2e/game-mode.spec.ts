import { expect, type Page, test } from "@playwright/test";
import { devices, signedInBrowsers } from "./browsers";
import { BASE_URL } from "./config";
import { e2eDb, keyedDissolve, makeSchool } from "./db";
import { confirmOpenDialog, expectAccessible } from "./helpers";
import { projectorLinkFrom, sceneOf } from "./guide";

/**
 * Game mode in a live lesson: the teacher starts a game with teams; a fast correct student, a slower correct one in
 * another class and a wrong one answer; the projector's leaderboard orders them by points under nicknames (no real
 * name anywhere on it, in its page or its stream) until the teacher shows names, with the classes' totals; each
 * student's stream brings their own points, rank, team's rank and podium place (their page asks nothing); the podium
 * shows the top three. Screenshots of the leaderboard at 1280×720
 * and 1920×1080 in the three display languages, and of a student's standing at 1280×720 and 390×844.
 */
const signedIn = signedInBrowsers();
const device = devices();
const PHONE = { width: 360, height: 740 };

const board = (page: Page) => page.getByTestId("game-board");

test("ゲームモード: points by speed, a leaderboard of nicknames until names are shown, class totals, own standing, the podium", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { teacher, school, students } = await makeSchool(3);
  // the third student is in 1年2組: the whole school's game has two class teams
  await e2eDb().studentDetail.update({ where: { userId: students[2]!.id }, data: { className: "2" } });
  // the teacher marks 「すき通っていて…」 correct
  const { activity, scenes, choice } = await keyedDissolve(school.id);

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await expect(teacherPage.getByTestId("game-mode")).not.toBeChecked();
  await teacherPage.getByTestId("game-mode").check();
  await teacherPage.getByTestId("game-teams").check();
  await expect(teacherPage.getByTestId("game-names")).not.toBeChecked();
  await teacherPage.getByTestId("start-session").click();
  await expect(teacherPage.getByTestId("game-controls")).toBeVisible();

  const link = await projectorLinkFrom(teacherPage);
  const projector = await (await device(browser, { viewport: { width: 1280, height: 720 } })).newPage();
  await projector.goto(link);
  await expect(projector.getByTestId("projector-live")).toHaveAttribute("data-scene-id", scenes[0]!.id);

  const join = async (email: string) => {
    const page = await signedIn(browser, email, PHONE);
    await page.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(sceneOf(page)).toHaveAttribute("data-scene-id", scenes[0]!.id);
    return page;
  };
  const fast = await join(students[0]!.email!);
  const slow = await join(students[1]!.email!);
  const wrongPage = await join(students[2]!.email!);
  // the question: its speed points count from now
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  for (const kid of [fast, slow, wrongPage]) await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", choice.id);
  const answer = async (kid: Page, option: string) => {
    await kid.locator(`[data-option="${option}"] input`).check();
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  };
  await answer(fast, "clear");
  await answer(wrongPage, "cloudy");
  await new Promise((r) => setTimeout(r, 3000));
  await answer(slow, "clear");

  // nothing to show a student before the teacher shows the board
  await expect(wrongPage.getByTestId("game-standing")).toHaveCount(0);

  // the students' pages ask nothing: each one's own standing arrives in their stream
  const asked: string[] = [];
  for (const kid of [fast, slow, wrongPage])
    kid.on("request", (r) => {
      if (r.method() === "POST") asked.push(r.url());
    });
  await teacherPage.getByTestId("game-ranking").click();
  await expect(teacherPage.getByTestId("game-ranking")).toHaveAttribute("aria-pressed", "true");
  await expect(board(projector)).toHaveAttribute("data-view", "ranking");
  const rows = board(projector).getByTestId("game-player");
  await expect(rows).toHaveCount(3);
  const points = async () =>
    (await rows.locator(".game-points").allInnerTexts()).map((t) => Number(t.replace(/[^0-9]/g, "")));
  const [p1, p2, p3] = await points();
  expect(p1!).toBeGreaterThan(p2!);
  expect(p2!).toBeGreaterThanOrEqual(500);
  expect(p3).toBe(0);
  // nicknames only: no real name on the screen or in its page
  expect(await projector.content()).not.toContain("試験");
  await expect(board(projector).getByTestId("game-team")).toHaveCount(2);
  await expect(board(projector).getByTestId("game-team").first()).toContainText(/1年\S*1組/);

  // each student sees their own standing
  await expect(fast.getByTestId("game-standing-rank")).toHaveAttribute("data-rank", "1");
  await expect(slow.getByTestId("game-standing-rank")).toHaveAttribute("data-rank", "2");
  await expect(wrongPage.getByTestId("game-standing-rank")).toHaveAttribute("data-rank", "3");
  await expect(wrongPage.getByTestId("game-standing-rank")).toHaveAttribute("data-points", "0");
  await expect(slow.getByTestId("game-standing-rank")).toHaveAttribute("data-points", String(p2));
  await expect(slow.getByTestId("game-standing-rank")).toContainText(`${p2}点`);
  // the class teams: 1組 (the fast and the slow student) first, 2組 second
  await expect(fast.getByTestId("game-standing-team")).toHaveAttribute("data-rank", "1");
  await expect(fast.getByTestId("game-standing-team")).toHaveAttribute("data-points", String(p1! + p2!));
  await expect(wrongPage.getByTestId("game-standing-team")).toHaveAttribute("data-rank", "2");
  // no podium place on the leaderboard, only on the podium
  await expect(fast.getByTestId("game-standing-podium")).toHaveCount(0);
  expect(asked).toEqual([]);
  // nobody else's name reaches a student's page (their own is in the header)
  for (const [k, kid] of [fast, slow, wrongPage].entries()) {
    const page = await kid.content();
    for (const other of [1, 2, 3].filter((n) => n !== k + 1)) expect(page).not.toContain(`花子${other}`);
  }
  await expectAccessible(fast);
  await fast.screenshot({ path: "test-results/game-student-phone.png", fullPage: true });

  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const)
    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]) {
      const context = await device(browser, { viewport });
      await context.addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
      const page = await context.newPage();
      await page.goto(link);
      await expect(board(page).getByTestId("game-player")).toHaveCount(3);
      for (const el of await board(page).locator(".game-row").all()) await expect(el).toBeInViewport({ ratio: 1 });
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
      await page.screenshot({ path: `test-results/game-ranking-${lang}-${viewport.width}.png` });
    }

  // names shown (confirmed): the projector names the players
  await teacherPage.getByTestId("game-show-names").click();
  await confirmOpenDialog(teacherPage);
  await expect(teacherPage.getByTestId("game-show-names")).toHaveAttribute("aria-pressed", "true");
  await expect(board(projector).getByTestId("game-player-name").first()).toHaveText("試験 花子1");

  // the podium
  await teacherPage.getByTestId("game-podium").click();
  await expect(board(projector)).toHaveAttribute("data-view", "podium");
  await expect(board(projector).getByTestId("game-player")).toHaveCount(3);
  await projector.screenshot({ path: "test-results/game-podium-1280.png" });
  await expect(fast.getByTestId("game-standing-podium")).toHaveAttribute("data-place", "1");
  await expect(wrongPage.getByTestId("game-standing-podium")).toHaveAttribute("data-place", "3");
  await expect(fast.getByTestId("game-standing-rank")).toHaveAttribute("data-rank", "1");
  expect(asked).toEqual([]);
  // a student's standing on the podium, in each display language, on a laptop and a phone
  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const) {
    const page = await signedIn(browser, students[1]!.email!, { width: 1280, height: 720 }, { lang });
    await page.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(page.getByTestId("game-standing-podium")).toHaveAttribute("data-place", "2");
    await expect(page.getByTestId("game-standing-team")).toBeVisible();
    await page.screenshot({ path: `test-results/game-standing-${lang}-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("game-standing")).toBeInViewport();
    await page.screenshot({ path: `test-results/game-standing-${lang}-390.png` });
    await page.context().close();
  }
  // the next question takes the board's place
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[3]!.id);
  await expect(projector.getByTestId("game-board")).toHaveCount(0);
  await expect(fast.getByTestId("game-standing")).toHaveCount(0);
});
