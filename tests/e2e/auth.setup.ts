import { expect, test as setup } from "@playwright/test";
import { signIn, storageStateOf } from "./helpers";

/** One signed-in storage state per role (read-only use: tests that change data make their own users). */
const ACCOUNTS = [
  ["student", "student01@example.com"],
  ["teacher", "teacher@example.com"],
  ["manager", "manager@example.com"],
] as const;

for (const [role, email] of ACCOUNTS) {
  setup(`sign in as ${role}`, async ({ page }) => {
    await page.goto("/signin");
    await signIn(page, email);
    // argon2 on a loaded box (CI shares its cores): generous, it is a poll
    await expect(page).toHaveURL(`/dashboard/${role}/home`, { timeout: 60_000 });
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
