import type { Page } from "@playwright/test";

/** A student's live session screen. */
export const sceneOf = (page: Page) => page.getByTestId("live-session");

/** Picks the class of the school's students ("grade:className") in the guide screen's start controls. */
export async function pickClass(page: Page, key: string) {
  const value = await page
    .locator(`[data-testid="session-class-pick"] option[data-class="${key}"]`)
    .getAttribute("value");
  await page.getByTestId("session-class-pick").selectOption(value!);
}

/** Opens the projector from the guide screen (its 投影 button) and returns the link it shows. */
export async function projectorLinkFrom(teacherPage: Page): Promise<string> {
  const [popup] = await Promise.all([
    teacherPage.waitForEvent("popup"),
    teacherPage.getByTestId("projector-open").click(),
  ]);
  const link = await teacherPage.getByTestId("projector-link").inputValue();
  await popup.close();
  return link;
}
