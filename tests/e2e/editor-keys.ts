import { expect, type Locator, type Page } from "@playwright/test";

/** Uploads a file into one image field of the scene form and waits until the upload is over. */
export async function uploadImage(field: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  await field.getByTestId("image-file").setInputFiles(file);
  await expect(field.getByTestId("image-progress")).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Ruby through the scene form's toolbar by keyboard alone: the last `chars` characters before
 * the caret selected, Shift+Tab to the toolbar, arrows to 「ふりがなをつける」, Enter, the
 * reading, Enter; the focus comes back to the field.
 */
export async function rubyByKeyboard(page: Page, form: Locator, field: Locator, chars: number, reading: string) {
  for (let i = 0; i < chars; i++) await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("Shift+Tab");
  const toolbar = form.getByRole("toolbar").first();
  await expect(toolbar.getByTestId("toolbar-bold")).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(toolbar.getByTestId("toolbar-ruby")).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("ruby-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("ruby-reading")).toBeFocused();
  await page.keyboard.type(reading);
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(field).toBeFocused();
}
