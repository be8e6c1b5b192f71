import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText, editUrl, expectAccessible, expectNotification } from "./helpers";
import { e2eDb, makeSchool } from "./db";
import { signedInBrowsers } from "./browsers";

const signedIn = signedInBrowsers();
type Lang = "ja" | "ja-ruby" | "ja-kana";
/** The editor's text `key` in the catalogue of `lang`. */
function edit(lang: Lang, key: string): string {
  const texts = (JSON.parse(readFileSync(`messages/${lang}.json`, "utf8")) as { Edit: Record<string, string> }).Edit;
  const text = texts[key];
  if (!text) throw new Error(`no Edit.${key} in ${lang}`);
  return text;
}
/** A catalogue text as read without its ruby readings: `|漢字(かん・じ)` → 漢字. */
const base = (text: string) => text.replace(/\|([^(|]+)\([^)]*\)/g, "$1");

async function teacherWithActivity() {
  const { teacher, school } = await makeSchool(0);
  const db = e2eDb();
  const activity = await createActivityFromTemplate(db, { templateId: "science-dissolve", schoolId: school.id });
  return { db, teacher, activity };
}

/** Types `code` into the field of `testId` and saves it. */
async function typeCode(page: Page, testId: string, code: string) {
  const field = page.getByTestId(testId);
  await field.getByTestId("curriculum-code").fill(code);
  await field.getByRole("button").click();
  return field;
}

test("a teacher sets the 学習指導要領コード of an activity and of a scene in the editor; a code that is not 16 digits is refused with the reason", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { db, teacher, activity } = await teacherWithActivity();
  const codes = async () => ({
    activity: (await db.activity.findUniqueOrThrow({ where: { id: activity.id } })).curriculumCode,
    scenes: (await db.activityScene.findMany({ where: { activityId: activity.id }, orderBy: { position: "asc" } })).map(
      (s) => s.curriculumCode,
    ),
  });
  const editor = await signedIn(browser, teacher.email!);
  await editor.goto(editUrl(activity.id));
  // what it is, with an example
  await expect(editor.getByTestId("activity-curriculum-code")).toContainText("8260243111200000");

  const wrong = await typeCode(editor, "activity-curriculum-code", "8260-2431-1120-0000");
  await expect(wrong.getByTestId("field-error")).toBeVisible();
  expect(await baseText(wrong.getByTestId("field-error"))).toBe(base(edit("ja-ruby", "curriculumCodeInvalid")));
  await expect(wrong.getByTestId("curriculum-code")).toHaveAttribute("aria-invalid", "true");
  expect((await codes()).activity).toBeNull();

  const right = await typeCode(editor, "activity-curriculum-code", "8260243111200000");
  await expectNotification(editor, base(edit("ja-ruby", "curriculumCodeSaved")));
  await expect(right.getByTestId("field-error")).toHaveCount(0);
  await expect.poll(async () => (await codes()).activity).toBe("8260243111200000");

  // the first scene's own code, typed with full-width digits as a Japanese keyboard gives them
  await editor.getByTestId("edit-scene").first().click();
  await typeCode(editor, "scene-curriculum-code", "８２６０２４３１１１３０００００");
  await expect.poll(async () => (await codes()).scenes[0]).toBe("8260243111300000");
  const rest = (await codes()).scenes.slice(1);
  expect(rest.every((c) => c === null)).toBe(true);

  // a scene's code that is too short is refused too, and the stored one stays
  const short = await typeCode(editor, "scene-curriculum-code", "82602431113");
  await expect(short.getByTestId("field-error")).toBeVisible();
  expect((await codes()).scenes[0]).toBe("8260243111300000");

  // emptied: the activity's code is cleared
  await typeCode(editor, "activity-curriculum-code", "");
  await expect.poll(async () => (await codes()).activity).toBeNull();

  await editor.reload();
  await expect(editor.getByTestId("activity-curriculum-code").getByTestId("curriculum-code")).toHaveValue("");
  await editor.getByTestId("edit-scene").first().click();
  await expect(editor.getByTestId("scene-curriculum-code").getByTestId("curriculum-code")).toHaveValue(
    "8260243111300000",
  );
  await expectAccessible(editor);
});

test("the 学習指導要領コード fields and their refusal fit a laptop and a phone in the three display languages", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { teacher, activity } = await teacherWithActivity();
  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const) {
    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 390, height: 844 },
    ]) {
      const page = await signedIn(browser, teacher.email!, viewport, { lang });
      await page.goto(editUrl(activity.id));
      await page.getByTestId("edit-scene").first().click();
      const field = await typeCode(page, "scene-curriculum-code", "12");
      await expect(field.getByTestId("field-error")).toBeVisible();
      expect(await baseText(field.getByTestId("field-error"))).toBe(base(edit(lang, "curriculumCodeInvalid")));
      await field.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `test-results/curriculum-code-${lang}-${viewport.width}.png` });
      await page.getByTestId("activity-curriculum-code").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/curriculum-code-activity-${lang}-${viewport.width}.png` });
      await page.context().close();
    }
  }
});
