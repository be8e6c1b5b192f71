import { expect, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { editUrl, expectAccessible, expectNotification, signInAs } from "./helpers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";

type Options = { options: { id: string; correct?: boolean }[] };
/** A correct flag in a page's HTML or its RSC payload (escaped inside script strings). */
const KEY = /correct\\*"\s*:\s*true/;

test.describe("correct answers", () => {
  test("a teacher marks the correct option by keyboard, the staff preview shows it; a student's pages never carry the flag", async ({
    page,
    browser,
  }) => {
    const { teacher, school, students } = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const choice = (await scenesOf(activity.id))[2]!; // single_choice "solution": clear / cloudy / colored
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(`/dashboard/teacher/activities/edit/${choice.activityId}`);
    const item = page.locator(`[data-scene-id="${choice.id}"][data-testid="scene-item"]`);
    await item.getByTestId("edit-scene").click();
    const form = item.getByTestId("scene-form");
    const box = form.getByRole("checkbox", { name: "選択肢1は正解" });
    await box.focus();
    await page.keyboard.press("Space");
    await expect(box).toBeChecked();
    await expect(
      item.getByTestId("scene-preview").locator('[data-option="clear"] [data-testid="correct-mark"]'),
    ).toHaveText("正解");
    await expect(item.getByTestId("scene-preview").getByTestId("correct-mark")).toHaveCount(1);
    await expectAccessible(page);
    await form.getByTestId("save-scene").focus();
    await page.keyboard.press("Enter");
    await expectNotification(page, "シーンを保存しました");
    await expect
      .poll(async () =>
        ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: choice.id } })).content as Options).options.map(
          (o) => o.correct ?? false,
        ),
      )
      .toEqual([true, false, false]);
    // the staff preview page shows it too (and the check below would see it)
    const preview = await page.request.get(`/dashboard/teacher/activities/preview/${activity.id}`);
    expect(preview.status()).toBe(200);
    expect(await preview.text()).toMatch(KEY);

    const other = await browser.newContext();
    const student = await other.newPage();
    await signInAs(student, students[0]!.email!, TEST_PASSWORD);
    for (const path of ["solo", "response"]) {
      const res = await student.request.get(`/dashboard/student/activities/${path}/${activity.id}`);
      expect(res.status()).toBe(200);
      expect(await res.text()).not.toMatch(KEY);
    }
    await student.goto(`/dashboard/student/activities/solo/${activity.id}`);
    await expect(student.getByTestId("scene")).toBeVisible();
    await expect(student.getByTestId("correct-mark")).toHaveCount(0);
    await other.close();
  });
});

test.describe("feedback to students", () => {
  test("the teacher chooses 'at the end': the student's result page shows 正解/不正解 and the correct option once every scene is answered, never before", async ({
    page,
    browser,
  }) => {
    const { teacher, school, students } = await makeSchool(1);
    const db = e2eDb();
    const activity = await createActivityFromTemplate(db, {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const [, weight, solution, candle, learned] = await scenesOf(activity.id);
    // the key: 「すき通っていて…」 is correct; the candle's correct pair is out → oxygen
    const keyed = (content: unknown, ids: string[]) =>
      JSON.parse(JSON.stringify(content), (k, v: unknown) =>
        v && typeof v === "object" && "id" in v && "label" in v && ids.includes((v as { id: string }).id)
          ? { ...v, correct: true }
          : v,
      );
    await db.activityScene.update({
      where: { id: solution!.id },
      data: { content: keyed(solution!.content, ["clear"]) },
    });
    await db.activityScene.update({
      where: { id: candle!.id },
      data: { content: keyed(candle!.content, ["out", "oxygen"]) },
    });

    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    await page.getByLabel("正誤の表示（正解にしるしをつけた問題）").selectOption("at_end");
    await expectNotification(page, "正誤の表示を変えました");
    await expect
      .poll(async () => (await db.activity.findUniqueOrThrow({ where: { id: activity.id } })).feedback)
      .toBe("at_end");

    const student = students[0]!;
    const answer = (scene: { id: string; position: number }, value: object) =>
      createResponse(db, {
        activityId: activity.id,
        sceneId: scene.id,
        userId: student.id,
        scenePosition: scene.position,
        answer: value,
      });
    await answer(weight!, { first: "same", second: "sure", reason: "なくならない" });
    await answer(solution!, { choice: "cloudy" });
    await answer(candle!, { first: "out", second: "oxygen", reason: "空気がなくなる" });

    const other = await browser.newContext();
    const sp = await other.newPage();
    await signInAs(sp, student.email!, TEST_PASSWORD);
    const url = `/dashboard/student/activities/response/${activity.id}`;
    // one scene still open: no answers, no verdicts, no key in the page
    const early = await sp.request.get(url);
    expect(await early.text()).not.toMatch(KEY);
    await sp.goto(url);
    await expect(sp.getByTestId("response-not-yet")).toBeVisible();
    await expect(sp.getByTestId("verdict")).toHaveCount(0);

    await answer(learned!, { text: "友だちの考えもおもしろい" });
    await sp.reload();
    const review = sp.getByTestId("answer-review");
    await expect(review.locator(`[data-scene-id="${solution!.id}"] [data-testid="verdict"]`)).toHaveAttribute(
      "data-verdict",
      "incorrect",
    );
    // a student's default display language is Japanese with reading aids: 「× 不正解」 with its ruby
    await expect(review.locator(`[data-scene-id="${solution!.id}"] [data-testid="verdict"]`)).toContainText("×");
    await expect(review.locator(`[data-scene-id="${solution!.id}"] [data-testid="verdict"] rt`).first()).toHaveText(
      "ふ",
    );
    await expect(
      review.locator(`[data-scene-id="${solution!.id}"] [data-option="clear"] [data-testid="correct-mark"]`),
    ).toBeVisible();
    await expect(review.locator(`[data-scene-id="${candle!.id}"] [data-testid="verdict"]`)).toHaveAttribute(
      "data-verdict",
      "correct",
    );
    await expect(review.locator(`[data-scene-id="${weight!.id}"] [data-testid="verdict"]`)).toHaveCount(0);
    await expect(review.getByTestId("verdict")).toHaveCount(2);
    await expectAccessible(sp);

    // the teacher's statistics: the correct rate of each scene with a key, and per group
    await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
    const rate = page.locator(`[data-scene-id="${solution!.id}"] [data-testid="correct-rate"]`);
    await expect(rate).toHaveAttribute("data-correct", "0");
    await expect(rate).toHaveAttribute("data-answered", "1");
    await expect(rate).toContainText("正答率 0%（0/1人）");
    await expect(rate.locator('[data-group="A"]')).toContainText("Aグループ：0%");
    await expect(page.locator(`[data-scene-id="${candle!.id}"] [data-testid="correct-rate"]`)).toContainText(
      "正答率 100%（1/1人）",
    );
    await expect(page.locator(`[data-scene-id="${weight!.id}"] [data-testid="correct-rate"]`)).toHaveCount(0);
    await expectAccessible(page);

    // 'never': the same page shows the answers without verdicts or marks
    await db.activity.update({ where: { id: activity.id }, data: { feedback: "never" } });
    await sp.reload();
    await expect(review).toBeVisible();
    await expect(sp.getByTestId("verdict")).toHaveCount(0);
    await expect(sp.getByTestId("correct-mark")).toHaveCount(0);
    await other.close();
  });
});

test("'after each answer': a student answers in solo, opens 答え合わせ and sees the verdict of that answer at once", async ({
  browser,
}) => {
  const { school, students } = await makeSchool(1);
  const db = e2eDb();
  const activity = await createActivityFromTemplate(db, {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  await db.activity.update({ where: { id: activity.id }, data: { feedback: "after_answer" } });
  const [intro, weight, solution] = await scenesOf(activity.id);
  const options = (solution!.content as Options).options.map((o) => (o.id === "clear" ? { ...o, correct: true } : o));
  await db.activityScene.update({
    where: { id: solution!.id },
    data: { content: { ...(solution!.content as object), options } },
  });
  const student = students[0]!;
  // the first two scenes are answered: the player opens on the choice
  await createResponse(db, {
    activityId: activity.id,
    sceneId: intro!.id,
    userId: student.id,
    scenePosition: 0,
    answer: { seen: true },
  });
  await createResponse(db, {
    activityId: activity.id,
    sceneId: weight!.id,
    userId: student.id,
    scenePosition: 1,
    answer: { first: "same", second: "sure", reason: "r" },
  });
  const context = await browser.newContext();
  const sp = await context.newPage();
  await signInAs(sp, student.email!, TEST_PASSWORD);
  await sp.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await expect(sp.getByTestId("correct-mark")).toHaveCount(0);
  await sp.locator('[data-option="clear"] input').check();
  await expect(sp.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await sp.getByTestId("check-answers").click();
  await expect(sp).toHaveURL(new RegExp(`/dashboard/student/activities/response/${activity.id}$`));
  const verdict = sp.locator(`[data-scene-id="${solution!.id}"] [data-testid="verdict"]`);
  await expect(verdict).toHaveAttribute("data-verdict", "correct");
  await expect(
    sp.locator(`[data-scene-id="${solution!.id}"] [data-option="clear"] [data-testid="correct-mark"]`),
  ).toBeVisible();
  await expectAccessible(sp);
  await context.close();
});
