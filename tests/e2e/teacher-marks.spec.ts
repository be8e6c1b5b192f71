import { expect, type Locator, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool } from "./db";
import { baseText, expectAccessible, expectNotification } from "./helpers";

const signedIn = signedInBrowsers();
const PHONE = { width: 360, height: 740 };

/** A line across the canvas with the mouse. */
async function mouseLine(page: Page, canvas: Locator) {
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++)
    await page.mouse.move(box.x + box.width * (0.2 + 0.06 * i), box.y + box.height * (0.2 + 0.05 * i));
  await page.mouse.up();
}

test.describe("teacher marks and comments", () => {
  test.setTimeout(240_000);

  test("a student writes and draws on a phone; the teacher marks both with the keyboard and comments; the student's result page shows marks and comments (markup rendered, never HTML)", async ({
    browser,
  }) => {
    const { teacher, manager: managerUser, school, students } = await makeSchool(1);
    const made = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
      mode: "self",
    });
    // one free-text scene, then a drawing scene; marks shown at the end
    const free = await e2eDb().activityScene.findFirstOrThrow({
      where: { activityId: made.id, type: "free_text" },
      orderBy: { position: "asc" },
    });
    await e2eDb().activityScene.deleteMany({ where: { activityId: made.id, id: { not: free.id } } });
    await e2eDb().activityScene.update({ where: { id: free.id }, data: { position: 0 } });
    const drawing = await e2eDb().activityScene.create({
      data: { activityId: made.id, type: "drawing", position: 1, content: { prompt: "図をかきましょう。" } },
    });
    await e2eDb().activity.update({ where: { id: made.id }, data: { feedback: "at_end" } });
    await e2eDb().studentDetail.update({ where: { userId: students[0]!.id }, data: { counterbalanceGroup: null } });

    const student = await signedIn(browser, students[0]!.email!, PHONE);
    await student
      .getByTestId("my-activities")
      .locator(`[data-activity-id="${made.id}"]`)
      .getByTestId("go-start")
      .click();
    await expect(student.getByTestId("scene")).toHaveAttribute("data-scene-type", "free_text");
    await student.locator("textarea.answer-text").fill("水にとけると見えなくなる");
    await student.getByTestId("next").click();
    const canvas = student.getByTestId("drawing-canvas");
    await expect(canvas).toBeVisible();
    await mouseLine(student, canvas);
    await expect(canvas).toHaveAttribute("data-strokes", "1");
    const answers = () =>
      e2eDb().response.findMany({
        where: { activityId: made.id, userId: students[0]!.id },
        select: { id: true, sceneId: true },
      });
    await expect.poll(async () => (await answers()).length, { timeout: 30_000 }).toBe(2);
    // nothing marked yet: the result page says so
    await student.goto(`/dashboard/student/activities/response/${made.id}`);
    await expect(student.getByTestId("marks-empty")).toBeVisible();
    await expect(student.getByTestId("mark-note")).toHaveCount(0);

    // the teacher marks the free text with keys (1 = correct) and saves with Ctrl+Enter in the comment
    const page = await signedIn(browser, teacher.email!);
    await page.goto(`/dashboard/teacher/activities/response/${made.id}/${students[0]!.id}`);
    // the academy's manager opens the same answers before the teacher marks (sees no mark yet)
    const manager = await signedIn(browser, managerUser.email!);
    await manager.goto(`/dashboard/manager/activities/response/${school.id}/${made.id}/${students[0]!.id}`);
    const managerDraw = manager.locator(`[data-scene-id="${drawing.id}"]`).getByTestId("mark-form");
    await expect(managerDraw.getByTestId("mark-status")).toContainText("まだ");
    const textForm = page.locator(`[data-scene-id="${free.id}"]`).getByTestId("mark-form");
    await expect(textForm.getByTestId("mark-status")).toContainText("まだ");
    await textForm.getByTestId("mark-none").focus();
    await page.keyboard.press("1");
    await expect(textForm.getByTestId("mark-correct")).toBeChecked();
    await textForm.getByTestId("mark-comment").fill("よく観察できました");
    await textForm.getByTestId("mark-comment").press("Control+Enter");
    await expectNotification(page, "採点を保存しました");
    await expect(textForm).toHaveAttribute("data-verdict", "correct");
    await expect(textForm.getByTestId("mark-status")).toContainText("試験 先生");
    // the drawing: 2 = partly, a comment with HTML in it stays text
    const drawForm = page.locator(`[data-scene-id="${drawing.id}"]`).getByTestId("mark-form");
    await drawForm.getByTestId("mark-none").focus();
    await page.keyboard.press("2");
    await drawForm.getByTestId("mark-comment").fill("<b>根</b>もかこう<script>window.__x=1</script>");
    await drawForm.getByTestId("mark-save").click();
    await expectNotification(page, "採点を保存しました");
    await expect(drawForm).toHaveAttribute("data-verdict", "partly");
    const ids = Object.fromEntries((await answers()).map((a) => [a.sceneId, a.id]));
    expect(
      await e2eDb().responseMark.findUnique({
        where: { responseId: ids[free.id]! },
        select: { verdict: true, comment: true, markedById: true },
      }),
    ).toEqual({ verdict: "correct", comment: "よく観察できました", markedById: teacher.id });
    expect((await e2eDb().responseMark.findUnique({ where: { responseId: ids[drawing.id]! } }))?.markedById).toBe(
      teacher.id,
    );
    // the manager saves over it from the page that showed no mark: last save wins, and says whose mark it replaced
    await managerDraw.getByTestId("mark-none").focus();
    await manager.keyboard.press("2");
    await managerDraw.getByTestId("mark-comment").fill("<b>根</b>もかこう<script>window.__x=1</script>");
    await managerDraw.getByTestId("mark-save").click();
    await expectNotification(manager, "試験 先生の採点");
    await expect(managerDraw.getByTestId("mark-status")).toContainText("試験 管理");
    await expect
      .poll(
        async () => (await e2eDb().responseMark.findUnique({ where: { responseId: ids[drawing.id]! } }))?.markedById,
      )
      .toBe(managerUser.id);
    expect((await e2eDb().responseMark.findUnique({ where: { responseId: ids[drawing.id]! } }))?.verdict).toBe(
      "partly",
    );
    await expectAccessible(page);
    // a reload shows the stored marks; the stats page counts them (partly apart)
    await page.reload();
    await expect(textForm.getByTestId("mark-correct")).toBeChecked();
    await expect(textForm.getByTestId("mark-comment")).toHaveValue("よく観察できました");
    await page.goto(`/dashboard/teacher/activities/stats/${made.id}`);
    await expect(page.locator(`[data-scene-id="${free.id}"]`).getByTestId("correct-rate")).toHaveAttribute(
      "data-correct",
      "1",
    );
    await expect(page.locator(`[data-scene-id="${drawing.id}"]`).getByTestId("correct-rate")).toHaveAttribute(
      "data-partly",
      "1",
    );
    await expect(
      page.locator(`[data-scene-id="${free.id}"]`).getByTestId("free-texts").getByTestId("mark-badge"),
    ).toHaveAttribute("data-verdict", "correct");
    await expect(
      page.locator(`[data-scene-id="${drawing.id}"]`).getByTestId("drawing-gallery").getByTestId("mark-badge"),
    ).toHaveAttribute("data-verdict", "partly");

    // the student's result page on the phone: marks (feedback at the end, all answered) and comments, with furigana
    // (the student's default display language), HTML as text
    await student.reload();
    await expect(student.getByTestId("marks-empty")).toHaveCount(0);
    const textNote = student.locator(`[data-scene-id="${free.id}"]`).getByTestId("mark-note");
    await expect(textNote).toHaveAttribute("data-verdict", "correct");
    expect(await baseText(textNote.getByTestId("teacher-comment"))).toBe("よく観察できました");
    await expect(textNote.getByTestId("teacher-comment").locator("rt").first()).toBeVisible();
    const drawNote = student.locator(`[data-scene-id="${drawing.id}"]`).getByTestId("mark-note");
    await expect(drawNote).toHaveAttribute("data-verdict", "partly");
    expect(await baseText(drawNote.getByTestId("teacher-comment"))).toBe(
      "<b>根</b>もかこう<script>window.__x=1</script>",
    );
    await expect(drawNote.locator("b, script")).toHaveCount(0);
    expect(await student.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
    expect(await student.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(student);
    // the student has no mark form
    await expect(student.getByTestId("mark-form")).toHaveCount(0);

    // in kana: the mark's words and the comment without kanji
    await student.context().addCookies([{ name: "manabiya-lang", value: "ja-kana", url: BASE_URL }]);
    await student.reload();
    await expect(textNote.getByTestId("teacher-verdict")).toHaveText("せんせいのさいてん：せいかい");
    await expect(drawNote.getByTestId("teacher-verdict")).toHaveText("せんせいのさいてん：ぶぶんせいかい");
    expect(await textNote.locator("p.muted").first().textContent()).toBe("せんせいのコメント");
    await expect(textNote.getByTestId("teacher-comment")).toHaveText("よくかんさつできました");

    // feedback "never": the marks go, the comments stay
    await e2eDb().activity.update({ where: { id: made.id }, data: { feedback: "never" } });
    await student.reload();
    await expect(textNote).toHaveAttribute("data-verdict", "");
    await expect(textNote.getByTestId("teacher-verdict")).toHaveCount(0);
    await expect(textNote.getByTestId("teacher-comment")).toHaveText("よくかんさつできました");
  });
});
