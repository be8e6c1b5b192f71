import { expect, test } from "@playwright/test";
import { signedInBrowsers } from "./browsers";
import { createActivityFromTemplate, createSchool, createUser } from "../../prisma/seed/factories";
import { readLibraryFiles } from "@/features/activities/server/library-bundle";
import { loadBundledLibrary } from "@/features/activities/server/library-bundle-commands";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, testHash } from "./db";
import { expectAccessible, expectHydrated, expectNotification } from "./helpers";

const signedIn = signedInBrowsers();

test("a manager publishes an activity with tags; a teacher of another school of the academy finds it by search and copies it; another academy's teacher never sees it", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const a = await makeSchool(0);
  const other = await makeSchool(0);
  const title = `|溶(と)ける実験${a.tag}`;
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: a.school.id,
    title,
    mode: "self",
  });
  const sibling = await createSchool(e2eDb(), {
    academyId: a.academy.id,
    name: `隣の中学校${a.tag}`,
    nameKana: "となりのちゅうがっこう",
  });
  const siblingTeacher = await createUser(e2eDb(), {
    role: "teacher",
    email: `t2-${a.tag}@test.example`,
    passwordHash: await testHash(),
    schoolId: sibling.id,
    name: "隣 先生",
    nameKana: "となり せんせい",
  });

  // the manager publishes from the school's activity list, with subject, grade and unit
  const manager = await signedIn(browser, a.manager.email!);
  await manager.goto(`/dashboard/manager/activities/${a.school.id}`);
  const form = manager.getByTestId("publish-activity");
  await form.getByTestId("publish-activity-select").selectOption(activity.id);
  await form.getByTestId("publish-subject").selectOption("science");
  await form.getByTestId("publish-grade").selectOption("j1");
  await form.getByTestId("publish-unit").fill("水溶液");
  await form.getByTestId("publish-submit").click();
  await expectNotification(manager, "ライブラリに公開しました。");
  await expect
    .poll(
      () =>
        e2eDb().libraryEntry.count({
          where: { sourceActivityId: activity.id, subject: "science", grade: "j1", unit: "水溶液" },
        }),
      { timeout: 30_000 },
    )
    .toBe(1);

  // a teacher of another school of the academy finds it by reading and by tags, and copies it with the keyboard
  const teacher = await signedIn(browser, siblingTeacher.email!);
  await teacher.goto("/dashboard/teacher/library");
  await expectAccessible(teacher);
  await teacher.getByTestId("library-search").fill(`とける実験${a.tag}`);
  await teacher.getByTestId("library-grade").selectOption("j1");
  await teacher.getByTestId("library-search").press("Enter");
  await expect(teacher).toHaveURL(/q=/, { timeout: 30_000 });
  const entries = teacher.getByTestId("library-entry");
  await expect(entries).toHaveCount(1, { timeout: 30_000 });
  await expect(entries.first()).toContainText("理科");
  await expect(entries.first()).toContainText("中1");
  await expectHydrated(entries.first().getByTestId("library-copy"));
  await entries.first().getByTestId("library-copy").focus();
  await teacher.keyboard.press("Enter");
  await expectNotification(teacher, `「溶ける実験${a.tag}」を学校に追加しました。`);
  await expect
    .poll(() => e2eDb().activity.count({ where: { schoolId: sibling.id, title } }), { timeout: 30_000 })
    .toBe(1);

  // a filter that matches nothing says so
  await teacher.goto("/dashboard/teacher/library?subject=math&q=" + encodeURIComponent(`溶ける実験${a.tag}`));
  await expect(teacher.getByTestId("library-empty")).toContainText("条件に合うアクティビティはありません。");

  // another academy's teacher: an empty library, and a forged copy is refused as "not found"
  const outsider = await signedIn(browser, other.teacher.email!);
  await outsider.goto("/dashboard/teacher/library");
  await expect(outsider.getByTestId("library-empty")).toContainText("ライブラリにはまだアクティビティがありません。");
  await expect(outsider.getByText(`溶ける実験${a.tag}`)).toHaveCount(0);
  expect(await e2eDb().activity.count({ where: { schoolId: other.school.id } })).toBe(0);
});

test("the manager retags and withdraws an entry after a confirmation; the copies stay", async ({ browser }) => {
  test.setTimeout(180_000);
  const a = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: a.school.id,
    title: `ふりかえり${a.tag}`,
    mode: "self",
  });
  const manager = await signedIn(browser, a.manager.email!);
  await manager.goto(`/dashboard/manager/activities/${a.school.id}`);
  await manager.getByTestId("publish-activity-select").selectOption(activity.id);
  await manager.getByTestId("publish-submit").click();
  await expectNotification(manager, "ライブラリに公開しました。");

  await manager.goto("/dashboard/manager/library");
  const entry = manager.getByTestId("library-entry").filter({ hasText: `ふりかえり${a.tag}` });
  await expect(entry).toHaveCount(1, { timeout: 30_000 });
  await entry.getByTestId("library-copy-school").selectOption(a.school.id);
  await entry.getByTestId("library-copy").click();
  await expectNotification(manager, `「ふりかえり${a.tag}」を学校に追加しました。`);
  await entry.getByTestId("library-manage").locator("summary").click();
  await entry.getByTestId("library-tags-subject").selectOption("homeroom");
  await entry.getByTestId("library-save-tags").click();
  await expectNotification(manager, "タグを保存しました。");
  await expect
    .poll(async () => (await e2eDb().libraryEntry.findUnique({ where: { sourceActivityId: activity.id } }))?.subject, {
      timeout: 30_000,
    })
    .toBe("homeroom");

  await entry.getByTestId("library-withdraw").click();
  const dialog = manager.locator("dialog[open]");
  await expect(dialog).toContainText("ライブラリから外しますか？");
  await dialog.getByTestId("confirm-cancel").click();
  expect(await e2eDb().libraryEntry.count({ where: { sourceActivityId: activity.id } })).toBe(1);
  await entry.getByTestId("library-withdraw").click();
  await manager.locator("dialog[open]").getByTestId("confirm-ok").click();
  await expectNotification(manager, "ライブラリから外しました。");
  await expect
    .poll(() => e2eDb().libraryEntry.count({ where: { sourceActivityId: activity.id } }), { timeout: 30_000 })
    .toBe(0);
  await expect(manager.getByTestId("library-entry").filter({ hasText: `ふりかえり${a.tag}` })).toHaveCount(0, {
    timeout: 30_000,
  });
  expect(await e2eDb().activity.count({ where: { schoolId: a.school.id, title: `ふりかえり${a.tag}` } })).toBe(2);
});

test("the library in kana has no kanji (content with ruby included); with reading aids it shows ruby; a phone shows it without sideways scrolling", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const a = await makeSchool(0);
  const title = `|水(みず)の|実験(じっけん)${a.tag}`;
  const content = {
    format: "manabiya-activity",
    version: 1,
    title,
    actorType: "student",
    scenes: [{ id: "s1", type: "info", content: { prompt: "|予想(よそう)しよう" } }],
  };
  await e2eDb().libraryEntry.create({
    data: {
      academyId: a.academy.id,
      sourceSchoolId: a.school.id,
      title,
      actorType: "student",
      sceneCount: 1,
      content,
      subject: "science",
      grade: "e5",
      unit: "|水溶液(すいようえき)",
    },
  });
  const page = await signedIn(browser, a.teacher.email!, { width: 360, height: 740 });
  await page.context().addCookies([{ name: "manabiya-lang", value: "ja-kana", url: BASE_URL }]);
  await page.goto("/dashboard/teacher/library");
  await expect(page.getByTestId("library-entry")).toHaveCount(1);
  await page.getByTestId("library-entry").locator("summary").first().click();
  expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/\p{Script=Han}/u);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.context().addCookies([{ name: "manabiya-lang", value: "ja-ruby", url: BASE_URL }]);
  await page.reload();
  await expect(page.getByTestId("library-entry").locator("h3 ruby")).toHaveCount(2);
  await expectAccessible(page);
});

test("a new academy's library holds the ready activities: a teacher filters 理科・中学校, copies one and previews it with its answer key", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const a = await makeSchool(0);
  const files = await readLibraryFiles();
  await loadBundledLibrary(e2eDb(), files, [a.academy.id]);
  const science = files.filter((f) => f.subject === "science" && f.grade.startsWith("j"));

  const teacher = await signedIn(browser, a.teacher.email!);
  await teacher.goto("/dashboard/teacher/library");
  await expect(teacher.getByTestId("library-entry").first()).toContainText("マナビヤが用意");
  await teacher.getByTestId("library-subject").selectOption("science");
  await teacher.getByTestId("library-grade").selectOption({ label: "中学校（全学年）" });
  await teacher.getByTestId("library-filter-apply").click();
  await expect(teacher).toHaveURL(/subject=science.*grade=j/, { timeout: 30_000 });
  const entries = teacher.getByTestId("library-entry");
  await expect(entries).toHaveCount(science.length, { timeout: 30_000 });
  for (const entry of await entries.all()) {
    await expect(entry).toContainText("理科");
    await expect(entry).toContainText(/中[123]/);
  }
  await expectAccessible(teacher);

  const first = entries.filter({ hasText: "密度で物質を見分けよう" });
  await expectHydrated(first.getByTestId("library-copy"));
  await first.getByTestId("library-copy").click();
  await expectNotification(teacher, "「密度で物質を見分けよう」を学校に追加しました。");
  await expect.poll(() => e2eDb().activity.count({ where: { schoolId: a.school.id } }), { timeout: 30_000 }).toBe(1);
  const copy = await e2eDb().activity.findFirstOrThrow({ where: { schoolId: a.school.id }, select: { id: true } });

  // the copy, previewed as a student sees it, with the answer key the teacher's preview marks
  await teacher.goto(`/dashboard/teacher/activities/preview/${copy.id}`);
  await expect(teacher.getByTestId("preview-badge")).toBeVisible();
  const scene = teacher.getByTestId("scene");
  await expect(scene).toHaveAttribute("data-scene-type", "info");
  await teacher.getByTestId("next").click();
  await expect(scene).toHaveAttribute("data-scene-type", "single_choice");
  await expect(scene).toContainText("質量54g、体積20cm³の金属の密度はどれですか。");
  await expect(scene.locator('[data-correct="true"]')).toHaveCount(1);
  await expect(scene.locator('[data-correct="true"]')).toContainText("2.7g/cm³");
  await scene.locator('[data-option="b"]').click();
  await teacher.getByTestId("next").click();
  await expect(scene).toHaveAttribute("data-scene-type", "single_choice");
  await expect(scene.locator('[data-correct="true"]')).toContainText("アルミニウム");
  await expectAccessible(teacher);
});
