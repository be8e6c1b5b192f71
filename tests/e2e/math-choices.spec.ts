import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { expectAccessible, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

// Lighthouse's accessibility audit (axe) on a self-paced scene whose choices are formulas
test("a self-paced question whose choices are formulas: each choice has a name, and axe finds nothing serious", async ({
  page,
}) => {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "math-linear-equations",
    schoolId: school.id,
    mode: "self",
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, students[0]!.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await page.getByTestId("next").click();
  const choices = page.getByRole("radiogroup").getByRole("radio");
  await expect(choices).toHaveCount(4);
  await expectAccessible(page);
  // the name of a formula choice is its formula (the TeX a reader would type), never empty
  await expect(page.getByRole("radio", { name: "x = 4", exact: true })).toBeVisible();
  await expect(page.getByRole("radio", { name: "x = \\frac{11}{2}", exact: true })).toBeVisible();
});
