import { expect, type Locator, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool } from "./db";
import { baseText, expectNotification } from "./helpers";

/** A teacher's comment as a child reads it: the scene texts' markup, automatic furigana, kana in kana mode. */
const signedIn = signedInBrowsers();
const PHONE = { width: 360, height: 740 };
const COMMENT = "**よく**できました。説明も正確です";
const KANJI = /[\u4e00-\u9fff]/u;

const shot = (locator: Locator, name: string) =>
  locator.screenshot({ path: `test-results/comment-${name}.png`, animations: "disabled" });

test("a comment in markup: bold for everyone, ruby over its kanji for a furigana student, kana for a kana student, as written for the teacher; marks and comments in the portfolio", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, school, students } = await makeSchool(2);
  const made = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  // one free-text scene, answered by both: the result pages open, marks shown at the end
  const free = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: made.id, type: "free_text" },
    orderBy: { position: "asc" },
  });
  await e2eDb().activityScene.deleteMany({ where: { activityId: made.id, id: { not: free.id } } });
  await e2eDb().activityScene.update({ where: { id: free.id }, data: { position: 0 } });
  await e2eDb().activity.update({ where: { id: made.id }, data: { feedback: "at_end" } });
  for (const s of students) {
    await e2eDb().studentDetail.update({ where: { userId: s.id }, data: { counterbalanceGroup: null } });
    await createResponse(e2eDb(), {
      activityId: made.id,
      sceneId: free.id,
      userId: s.id,
      answer: { text: "水にとけると見えなくなる" },
      scenePosition: 0,
    });
  }

  // the teacher marks both answers correct with the same comment
  const page = await signedIn(browser, teacher.email!, { width: 1280, height: 720 });
  for (const s of students) {
    await page.goto(`/dashboard/teacher/activities/response/${made.id}/${s.id}`);
    const form = page.locator(`[data-scene-id="${free.id}"]`).getByTestId("mark-form");
    await form.getByTestId("mark-correct").check();
    await form.getByTestId("mark-comment").fill(COMMENT);
    await form.getByTestId("mark-save").click();
    await expectNotification(page, "採点を保存しました");
    // staff keep the comment as written
    await page.reload();
    await expect(form.getByTestId("mark-comment")).toHaveValue(COMMENT);
  }

  // a furigana student (the default): bold, and readings over the kanji
  const ruby = await signedIn(browser, students[0]!.email!, PHONE);
  await ruby.goto(`/dashboard/student/activities/response/${made.id}`);
  const rubyComment = ruby.getByTestId("teacher-comment");
  await expect(rubyComment.locator("strong")).toHaveText("よく");
  expect(await baseText(rubyComment)).toBe("よくできました。説明も正確です");
  expect((await rubyComment.locator("rt").allTextContents()).join("")).toBe("せつめいせいかく");
  await expect(rubyComment).not.toContainText("**");
  await shot(ruby.getByTestId("mark-note"), "ja-ruby-phone");

  // a kana student: bold, no kanji
  const kana = await signedIn(browser, students[1]!.email!, PHONE, { lang: "ja-kana" });
  await kana.goto(`/dashboard/student/activities/response/${made.id}`);
  const kanaComment = kana.getByTestId("teacher-comment");
  await expect(kanaComment.locator("strong")).toHaveText("よく");
  await expect(kanaComment).toHaveText("よくできました。せつめいもせいかくです");
  expect(await kanaComment.textContent()).not.toMatch(KANJI);
  await shot(kana.getByTestId("mark-note"), "ja-kana-phone");

  // the portfolio: the mark and the comment under the answer (the teacher reads kanji, in bold where written)
  await page.goto(`/dashboard/teacher/portfolio/${students[0]!.id}`);
  const note = page.locator(`[data-activity-id="${made.id}"]`).getByTestId("mark-note");
  await expect(note).toHaveAttribute("data-verdict", "correct");
  await expect(note.getByTestId("teacher-verdict")).toHaveText("先生の採点：正解");
  await expect(note.getByTestId("teacher-comment").locator("strong")).toHaveText("よく");
  await expect(note.getByTestId("teacher-comment")).toHaveText("よくできました。説明も正確です");
  await page.locator(`[data-activity-id="${made.id}"]`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/comment-portfolio-ja-1280.png" });
  await page.context().addCookies([{ name: "manabiya-lang", value: "ja-kana", url: BASE_URL }]);
  await page.reload();
  await expect(note.getByTestId("teacher-verdict")).toHaveText("せんせいのさいてん：せいかい");
  await expect(note.getByTestId("teacher-comment").locator("strong")).toHaveText("よく");
  await page.locator(`[data-activity-id="${made.id}"]`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/comment-portfolio-ja-kana-1280.png" });
  await page.setViewportSize(PHONE);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/comment-portfolio-ja-kana-phone.png" });
});
