import { expect, test } from "@playwright/test";
import { expectStudentSeesPrompt, openDissolve, promptOf } from "./dissolve";
import { rubyByKeyboard } from "./editor-keys";
import { expectAccessible, expectNotification, tabTo } from "./helpers";

test.describe("rich-text toolbar", () => {
  test("a teacher formats a prompt with the toolbar by keyboard alone (bold, ruby, math; invalid TeX refused), previews it in kana at phone size, saves; a student sees it rendered", async ({
    page,
    browser,
  }) => {
    // the editor, then a student's whole sign-in and two scenes: over a minute on a loaded CI box
    test.setTimeout(150_000);
    const { activity, choice, item, students } = await openDissolve(page, 1);
    await item.getByTestId("edit-scene").focus();
    await page.keyboard.press("Enter");
    const form = item.getByTestId("scene-form");
    const prompt = form.locator('[data-field="content.prompt"]');
    await expect(prompt).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("水溶液はどれ");

    // bold: select 「どれ」, Ctrl+B
    await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("ControlOrMeta+b");
    await expect(prompt).toHaveValue("水溶液は**どれ**");

    // ruby: select 「水溶液」, Shift+Tab to the toolbar, arrows to 「ふりがなをつける」, Enter, the reading, Enter
    await page.keyboard.press("Home");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await rubyByKeyboard(page, form, prompt, 3, "すいようえき");
    await expect(prompt).toHaveValue("|水溶液(すいようえき)は**どれ**");

    // math: Ctrl+M at the end; invalid TeX is shown as an error and cannot be inserted
    await page.keyboard.press("End");
    await page.keyboard.press("ControlOrMeta+m");
    const math = page.getByTestId("math-dialog");
    await expect(math.getByTestId("math-tex")).toBeFocused();
    await page.keyboard.type("\\frac{1}{2");
    await expect(math.getByTestId("math-invalid")).toBeVisible();
    await expect(math.getByTestId("math-dialog-insert")).toBeDisabled();
    await page.keyboard.press("Enter");
    await expect(math).toBeVisible();
    await page.keyboard.type("}");
    await expect(math.getByTestId("math-preview").locator(".katex")).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(math).toHaveCount(0);
    await expect(prompt).toHaveValue("|水溶液(すいようえき)は**どれ**`\\frac{1}{2}`");

    // the preview in kana at phone size: the reading instead of the kanji, bold and typeset math kept
    const preview = item.getByTestId("scene-preview");
    await expect(preview.getByTestId("scene")).toContainText("水溶液はどれ"); // the teacher's plain Japanese
    await preview.getByTestId("preview-ja-kana").check();
    await expect(preview.getByTestId("scene")).toContainText("すいようえきはどれ");
    await expect(preview.getByTestId("scene")).not.toContainText("水溶液");
    await expect(preview.getByTestId("scene").locator("strong")).toHaveText("どれ");
    await expect(preview.locator(".katex")).toHaveCount(1);
    await expect(preview.getByTestId("preview-frame")).toHaveAttribute("data-size", "phone");
    expect((await preview.getByTestId("preview-frame").boundingBox())!.width).toBeLessThanOrEqual(360);
    await preview.getByTestId("preview-ja-ruby").check();
    await expect(preview.getByTestId("scene").locator("ruby rt").first()).toHaveText("すいようえき");
    await preview.getByTestId("preview-projector").check();
    await expect(preview.getByTestId("preview-frame")).toHaveAttribute("data-size", "projector");
    await expectAccessible(page);

    // save by keyboard
    await prompt.focus();
    await tabTo(page, form.getByTestId("save-scene"), 40);
    await page.keyboard.press("Enter");
    await expectNotification(page, "シーンを保存しました");
    await expect.poll(() => promptOf(choice.id)).toBe("|水溶液(すいようえき)は**どれ**`\\frac{1}{2}`");

    // the student (reading aids) sees ruby, bold and typeset math
    await expectStudentSeesPrompt(browser, students[0]!.email!, activity.id);
  });

  test("a selection that cuts through other markup is refused with a message and the text is unchanged", async ({
    page,
  }) => {
    const { item } = await openDissolve(page, 0);
    await item.getByTestId("edit-scene").click();
    const prompt = item.getByTestId("scene-form").locator('[data-field="content.prompt"]');
    await prompt.fill("**太い**字");
    await prompt.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 4));
    await page.keyboard.press("ControlOrMeta+u");
    await expectNotification(page, "ここには書式をつけられません");
    await expect(prompt).toHaveValue("**太い**字");
  });

  test("「保存するときにふりがなをつける」 puts the dictionary's readings into every text field that has none, shows them in the form and stores them", async ({
    page,
  }) => {
    const { choice, item } = await openDissolve(page, 0);
    await item.getByTestId("edit-scene").click();
    const form = item.getByTestId("scene-form");
    await form.locator('[data-field="content.prompt"]').fill("東京で|食(た)べる");
    await form.locator('[data-field="content.options.0.label"]').fill("水");
    await form.getByTestId("furigana-on-save").check();
    await form.getByTestId("save-scene").click();
    await expectNotification(page, "ふりがなを");
    await expect(form.locator('[data-field="content.prompt"]')).toHaveValue("|東京(とうきょう)で|食(た)べる");
    await expect(form.locator('[data-field="content.options.0.label"]')).toHaveValue("|水(みず)");
    await expect.poll(() => promptOf(choice.id)).toBe("|東京(とうきょう)で|食(た)べる");
  });

  test("「元に戻す」 steps back one edit at a time: the toolbar's bold, then the typing before it", async ({
    page,
  }) => {
    const { choice, item } = await openDissolve(page, 0);
    await item.getByTestId("edit-scene").click();
    const form = item.getByTestId("scene-form");
    const prompt = form.locator('[data-field="content.prompt"]');
    await expect(form.getByTestId("undo")).toBeDisabled();
    await prompt.fill("水は透明");
    await prompt.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(2, 4));
    await page.keyboard.press("ControlOrMeta+b");
    await expect(prompt).toHaveValue("水は**透明**");
    await form.getByTestId("undo").click();
    await expect(prompt).toHaveValue("水は透明");
    await form.getByTestId("undo").click();
    await expect(prompt).toHaveValue((choice.content as { prompt: string }).prompt);
    await expect(form.getByTestId("undo")).toBeDisabled();
  });
});
