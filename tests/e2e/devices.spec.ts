import { expect, test } from "@playwright/test";
import { makeSchool, TEST_PASSWORD } from "./db";
import { expectAccessible, signInAs } from "./helpers";

const LAPTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const TABLET =
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/**
 * A teacher signed in on a laptop and a tablet sees both devices on their sign-in page, this one marked; signing
 * out the tablet from the laptop (after a confirmation) signs out exactly the tablet: its next page is the
 * sign-in form, the laptop stays signed in, and the log shows the sign-out.
 */
test("a teacher sees their signed-in devices and signs out the other one; only that one is signed out", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const a = await makeSchool(0);
  const laptopContext = await browser.newContext({ userAgent: LAPTOP });
  const tabletContext = await browser.newContext({ userAgent: TABLET });
  const laptop = await laptopContext.newPage();
  const tablet = await tabletContext.newPage();
  await signInAs(tablet, a.teacher.email!, TEST_PASSWORD);
  await signInAs(laptop, a.teacher.email!, TEST_PASSWORD);

  await laptop.goto("/dashboard/teacher/signins");
  const devices = laptop.getByTestId("device-session");
  await expect(devices).toHaveCount(2);
  await expect(devices.nth(0)).toContainText("Chrome · Windows");
  await expect(devices.nth(0)).toHaveAttribute("data-current", "true");
  await expect(devices.nth(0).getByTestId("this-device")).toBeVisible();
  await expect(devices.nth(0).getByTestId("end-device")).toHaveCount(0);
  await expect(devices.nth(1)).toContainText("Safari · iPad");
  await expectAccessible(laptop);

  // cancelling changes nothing
  await devices.nth(1).getByTestId("end-device").click();
  await expect(laptop.getByTestId("confirm-body")).toContainText("Safari · iPad");
  await laptop.keyboard.press("Escape");
  await tablet.goto("/dashboard/teacher/activities");
  await expect(tablet).toHaveURL(/\/dashboard\/teacher\/activities/);

  await devices.nth(1).getByTestId("end-device").click();
  await laptop.getByTestId("confirm-dialog").getByRole("button", { name: "サインアウトさせる" }).click();
  await expect(devices).toHaveCount(1);
  await expect(laptop.getByTestId("device-sessions-none")).toBeVisible();

  await tablet.goto("/dashboard/teacher/activities");
  await expect(tablet).toHaveURL(/\/signin/);
  await laptop.goto("/dashboard/teacher/activities");
  await expect(laptop).toHaveURL(/\/dashboard\/teacher\/activities/);
  await laptop.goto("/dashboard/teacher/signins");
  await expect(laptop.getByTestId("signin-log-row").first()).toHaveAttribute("data-method", "signout");
  await laptopContext.close();
  await tabletContext.close();
});
