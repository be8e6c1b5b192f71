import { expect, type Locator, type Page, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { expectStudentSeesPrompt, openDissolve, promptOf } from "./dissolve";
import { expectAccessible, expectNotification } from "./helpers";

/** The single-choice scene's form of a science-dissolve copy, opened by a teacher of a new school. */
async function openChoiceForm(page: Page, studentCount: number) {
  const opened = await openDissolve(page, studentCount);
  await opened.item.getByTestId("edit-scene").click();
  return { ...opened, form: opened.item.getByTestId("scene-form") };
}

const visualPrompt = (form: Locator) => form.locator('[data-testid="visual-field"][data-field="content.prompt"]');
const markupPrompt = (form: Locator) => form.locator('textarea[data-field="content.prompt"]');

test.describe("visual editor", () => {
  test("a teacher switches to the visual mode, bolds a word, adds ruby (a reading that is not kana refused), inserts a formula and edits it in place, switches back to the exact markup; the preview and a student show it", async ({
    page,
    browser,
  }) => {
    // the editor, the visual editor's chunk, then a student's whole sign-in and two scenes: minutes on a loaded box
    test.setTimeout(180_000);
    const { activity, choice, students, item, form } = await openChoiceForm(page, 1);
    const original = await markupPrompt(form).inputValue();

    // switching to the visual mode and back without an edit leaves the text as it was
    await form.getByTestId("editor-mode-visual").check();
    const visual = visualPrompt(form);
    await expect(visual).toBeVisible({ timeout: 30_000 });
    await form.getByTestId("editor-mode-markup").check();
    await expect(markupPrompt(form)).toHaveValue(original);
    await form.getByTestId("editor-mode-visual").check();

    // type, then bold 「どれ」 with Ctrl+B
    await visual.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("水溶液はどれ");
    await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("ControlOrMeta+b");
    await expect(visual.locator("strong")).toHaveText("どれ");

    // ruby over 「水溶液」 from the toolbar: a Latin reading is refused with a message, kana is shown over the kanji
    await page.keyboard.press("Home");
    for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+ArrowRight");
    await form.getByTestId("toolbar-ruby").first().click();
    const ruby = page.getByTestId("ruby-dialog");
    await ruby.getByTestId("ruby-reading").fill("suiyoueki");
    await page.keyboard.press("Enter");
    await expect(ruby.getByTestId("ruby-invalid")).toHaveText("読みはひらがなかカタカナで入れてください。");
    await ruby.getByTestId("ruby-reading").fill("すいようえき");
    await page.keyboard.press("Enter");
    await expect(ruby).toHaveCount(0);
    await expect(visual.locator("ruby rt")).toHaveText("すいようえき");

    // a formula at the end (Ctrl+M), typeset as students see it, then edited in place
    await page.keyboard.press("End");
    await page.keyboard.press("ControlOrMeta+m");
    const math = page.getByTestId("math-dialog");
    await math.getByTestId("math-tex").fill("\\frac{1}{2}");
    await page.keyboard.press("Enter");
    await expect(math).toHaveCount(0);
    await expect(visual.locator(".katex")).toHaveCount(1);
    // a press on the typeset formula (its middle: the fraction's line between its glyphs) opens its TeX in place
    await visual.getByTestId("visual-math").locator(".katex-html").click();
    const tex = visual.getByTestId("visual-math-tex");
    await expect(tex).toHaveValue("\\frac{1}{2}");
    await tex.fill("\\frac{1}{3");
    await expect(tex).toHaveAttribute("aria-invalid", "");
    await tex.fill("\\frac{1}{3}");
    await page.keyboard.press("Enter");
    await expect(tex).toHaveCount(0);
    await expect(visual.locator(".katex-mathml annotation")).toHaveText("\\frac{1}{3}");

    // back to the markup: exactly what a teacher would have typed
    const markup = "|水溶液(すいようえき)は**どれ**`\\frac{1}{3}`";
    await form.getByTestId("editor-mode-markup").check();
    await expect(markupPrompt(form)).toHaveValue(markup);

    // the preview shows it, ruby, bold and typeset math
    const preview = item.getByTestId("scene-preview");
    await preview.getByTestId("preview-ja-ruby").check();
    await expect(preview.getByTestId("scene").locator("ruby rt").first()).toHaveText("すいようえき");
    await expect(preview.getByTestId("scene").locator("strong")).toHaveText("どれ");
    await expect(preview.locator(".katex")).toHaveCount(1);
    await expectAccessible(page);

    await form.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    await expect.poll(() => promptOf(choice.id)).toBe(markup);

    // the mode is remembered: after a reload the form opens in the visual mode
    await form.getByTestId("editor-mode-visual").check();
    await page.reload();
    await item.getByTestId("edit-scene").click();
    await expect(visualPrompt(form)).toBeVisible({ timeout: 30_000 });
    await expect(visualPrompt(form).locator("strong")).toHaveText("どれ");
    await expectAccessible(page);

    // the student (reading aids) sees ruby, bold and typeset math
    await expectStudentSeesPrompt(browser, students[0]!.email!, activity.id);
  });

  test("the visual editor at desktop, tablet and phone sizes in the three display languages (screenshots)", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { form, item } = await openChoiceForm(page, 0);
    await markupPrompt(form).fill("{red:|水溶液(すいようえき)}は**どれ**？||__|漢字(かん・じ)__で`x^2 + \\frac{1}{2}`");
    await form.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    await form.getByTestId("editor-mode-visual").check();
    await expect(visualPrompt(form).locator(".katex")).toHaveCount(1, { timeout: 30_000 });
    const sizes = [
      { name: "1280", width: 1280, height: 720 },
      { name: "tablet", width: 820, height: 1180 },
      { name: "phone", width: 390, height: 844 },
    ];
    for (const lang of ["ja", "ja-ruby", "ja-kana"]) {
      await page.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
      await page.reload();
      await item.getByTestId("edit-scene").click();
      const field = visualPrompt(form);
      await expect(field.locator(".katex")).toHaveCount(1, { timeout: 30_000 });
      await expect(field.locator("ruby")).toHaveCount(2);
      for (const size of sizes) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await field.scrollIntoViewIfNeeded();
        // the field stays inside the screen's width
        const box = (await field.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(size.width);
        await page.screenshot({ path: `test-results/visual-editor-${lang}-${size.name}.png` });
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });
});
