/**
 * Deleting a school is for the manager of its own academy only: another academy's manager
 * who rewrites the delete request of one of their own schools to name someone else's
 * empty school gets a refusal, and the school, its audit trail and its people stay.
 */
import { expect, test } from "@playwright/test";
import { createSchool } from "../../prisma/seed/factories";
import { e2eDb, makeSchool, TEST_PASSWORD } from "../e2e/db";
import { expectNotification, signInAs } from "../e2e/helpers";

test("another academy's manager cannot delete a school, even by rewriting the request", async ({ page }) => {
  test.setTimeout(90_000);
  const victim = await makeSchool(0);
  const target = await createSchool(e2eDb(), {
    academyId: victim.academy.id,
    name: `狙われた学校${victim.tag}`,
    nameKana: "ねらわれたがっこう",
  });
  const attacker = await makeSchool(0);
  const bait = await createSchool(e2eDb(), {
    academyId: attacker.academy.id,
    name: `おとり${attacker.tag}`,
    nameKana: "おとり",
  });
  await signInAs(page, attacker.manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/schools");
  await expect(page.getByText(target.name)).toHaveCount(0);

  let rewritten = 0;
  await page.route("**/dashboard/manager/schools", async (route) => {
    const body = route.request().postData();
    if (route.request().method() === "POST" && body?.includes(bait.id)) {
      rewritten++;
      await route.continue({ postData: body.replaceAll(bait.id, target.id) });
    } else await route.continue();
  });
  await page.locator(`li[data-school-id="${bait.id}"]`).getByTestId("delete-school").click();
  await page.getByTestId("confirm-ok").click();
  await expectNotification(page, "削除できませんでした");
  expect(rewritten).toBe(1);
  expect(await e2eDb().school.count({ where: { id: { in: [target.id, bait.id] } } })).toBe(2);
  expect(await e2eDb().auditLog.count({ where: { action: "school.delete", targetId: target.id } })).toBe(0);
});
