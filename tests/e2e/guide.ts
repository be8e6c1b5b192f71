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
