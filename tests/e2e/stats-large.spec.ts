import { expect, type Locator, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { expectAccessible, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

const STUDENTS = 230;
/** Above a bounded page (the bench's 1,000-student page is 346 KB), below this class's page listing every name and answer (563 K characters). */
const HTML_LIMIT = 400 * 1024;

/** A class of 230 who all wrote a free text and answered nothing else (so every question scene lists 230 "not answered yet"). */
async function largeClass() {
  const { teacher, manager, school } = await makeSchool(0);
  const users = Array.from({ length: STUDENTS }, (_, i) => ({ id: crypto.randomUUID(), n: i + 1 }));
  await e2eDb().user.createMany({
    data: users.map((u) => ({
      id: u.id,
      role: "student" as const,
      groupType: "school" as const,
      schoolId: school.id,
      name: `大量 生徒${u.n}`,
    })),
  });
  await e2eDb().studentDetail.createMany({
    data: users.map((u) => ({ userId: u.id, grade: 1, className: "1", number: u.n })),
  });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const free = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: activity.id, type: "free_text" } });
  const choice = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "single_choice" },
  });
  await e2eDb().response.createMany({
    data: users.map((u) => ({
      activityId: activity.id,
      sceneId: free.id,
      userId: u.id,
      answer: { text: `こたえ${u.n}番` },
      scenePosition: free.position,
      mode: "self" as const,
      clientRevision: 1,
      idempotencyKey: `${u.id}-${free.id}`.slice(0, 64),
    })),
  });
  return { teacher, manager, school, activity, free, choice };
}

/** "Show all" by keyboard: focus the control and press Enter. */
async function showAll(page: Page, scope: Locator) {
  const control = scope.getByRole("link", { name: new RegExp(`${STUDENTS}`) }).filter({ hasText: /すべて/ });
  await control.focus();
  await page.keyboard.press("Enter");
}

test('stats: a large class\'s page stays bounded (exact counts, the first 50 of each list) and "show all" reveals every answer, name and respondent', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { teacher, activity, free, choice } = await largeClass();
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  const path = `/dashboard/teacher/activities/stats/${activity.id}`;

  const reply = await page.request.get(path, { headers: { Accept: "text/html" } });
  expect(reply.status()).toBe(200);
  const html = await reply.text();
  expect(html.length, "the page a teacher opens stays light with 230 answers").toBeLessThan(HTML_LIMIT);
  expect(html).toContain(`data-key="started" data-count="${STUDENTS}"`);
  expect(html).not.toContain(`こたえ${STUDENTS}番`);

  await page.goto(path);
  const texts = page.locator(`section[data-scene-id="${free.id}"]`);
  await expect(texts).toContainText(`${STUDENTS}人が回答`);
  await expect(texts.getByTestId("free-texts").getByRole("listitem")).toHaveCount(50);
  await expectAccessible(page);
  await showAll(page, texts);
  await expect(texts.getByTestId("free-texts").getByRole("listitem")).toHaveCount(STUDENTS, { timeout: 30_000 });
  await expect(texts.getByText(`こたえ${STUDENTS}番`)).toBeVisible();

  const waiting = page.locator(`section[data-scene-id="${choice.id}"]`);
  await expect(waiting.getByTestId("not-answered")).toContainText(`まだ回答していない生徒（${STUDENTS}人）`);
  // 230 names start folded: open them (a summary is keyboard-operable too)
  await waiting.getByTestId("not-answered").locator("summary").click();
  await expect(waiting.getByTestId("not-answered").getByRole("listitem")).toHaveCount(50);
  await showAll(page, waiting);
  await expect(waiting.getByTestId("not-answered").getByRole("listitem")).toHaveCount(STUDENTS, { timeout: 30_000 });
  await expect(waiting.getByTestId("not-answered")).toContainText(`大量 生徒${STUDENTS}`);

  const respondents = page.getByTestId("respondents");
  await expect(respondents.getByRole("row")).toHaveCount(50);
  await showAll(page, page.locator("section", { has: respondents }));
  await expect(respondents.getByRole("row")).toHaveCount(STUDENTS, { timeout: 30_000 });
  await expect(respondents).toContainText(`大量 生徒${STUDENTS}`);
});

test("stats: a manager's \"show all\" stays on the manager's page of that school, with the filters kept", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { manager, school, activity, free } = await largeClass();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signInAs(page, manager.email!, TEST_PASSWORD);
    const path = `/dashboard/manager/activities/stats/${school.id}/${activity.id}`;
    await page.goto(`${path}?class=1:1`);
    const texts = page.locator(`section[data-scene-id="${free.id}"]`);
    await expect(texts.getByTestId("free-texts").getByRole("listitem")).toHaveCount(50);
    await showAll(page, texts);
    await expect(texts.getByTestId("free-texts").getByRole("listitem")).toHaveCount(STUDENTS, { timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe(path);
    expect(new URL(page.url()).searchParams.get("class")).toBe("1:1");
  } finally {
    await context.close();
  }
});
