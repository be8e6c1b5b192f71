import type { Page } from "@playwright/test";
import { signInAs } from "./helpers";
import { TEST_PASSWORD } from "./db";

/** A student signs in and plays the science-dissolve template's self-paced copy up to its single-choice scene (the third). */
export async function playDissolveToChoice(student: Page, email: string, activityId: string): Promise<Page> {
  await signInAs(student, email, TEST_PASSWORD);
  await student
    .getByTestId("my-activities")
    .locator(`[data-activity-id="${activityId}"]`)
    .getByTestId("go-start")
    .click();
  await student.getByTestId("next").click();
  await student.locator('[data-option="same"] input').check();
  await student.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  await student.getByTestId("reason").locator("textarea").fill("なくならないから");
  await student.getByTestId("next").click();
  return student;
}
