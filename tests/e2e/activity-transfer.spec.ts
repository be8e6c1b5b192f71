import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { signedInBrowsers } from "./browsers";
import { baseText, expectAccessible, expectNotification, signInAs } from "./helpers";

const signedIn = signedInBrowsers();
const scenesOf = (activityId: string) =>
  e2eDb().activityScene.findMany({
    where: { activityId },
    orderBy: { position: "asc" },
    select: { type: true, content: true, position: true },
  });

test("an activity downloaded as a file by one school's teacher is imported by another school's teacher, twice, and opens with the same scenes", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const a = await makeSchool(0);
  const b = await makeSchool(0);
  const title = `|溶(と)ける実験${a.tag}`;
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: a.school.id,
    title,
    mode: "self",
  });

  const pageA = await signedIn(browser, a.teacher.email!);
  await pageA.goto("/dashboard/teacher/activities");
  const downloading = pageA.waitForEvent("download");
  await pageA.locator(`tr[data-activity-id="${activity.id}"]`).getByTestId("export-activity").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`溶ける実験${a.tag}_活動データ.json`);
  const saved = await download.path();
  const file = JSON.parse(await readFile(saved, "utf8"));
  expect(file).toMatchObject({ format: "manabiya-activity", version: 1, title });

  const pageB = await signedIn(browser, b.teacher.email!);
  await pageB.goto("/dashboard/teacher/activities");
  await expectAccessible(pageB);
  for (let n = 1; n <= 2; n++) {
    await pageB.getByTestId("activity-file").setInputFiles(saved);
    await pageB.getByTestId("import-activity-submit").click();
    await expectNotification(pageB, `「溶ける実験${a.tag}」を取り込みました。`);
    await expect
      .poll(() => e2eDb().activity.count({ where: { schoolId: b.school.id, title } }), { timeout: 30_000 })
      .toBe(n);
  }
  const imported = await e2eDb().activity.findMany({ where: { schoolId: b.school.id, title }, select: { id: true } });
  const row = pageB.locator(`tr[data-activity-id="${imported[0]!.id}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(pageB.locator(`tr[data-activity-id="${imported[1]!.id}"]`)).toBeVisible();
  const original = await scenesOf(activity.id);
  for (const { id } of imported) expect(await scenesOf(id)).toEqual(original);

  // it opens: the preview plays its first scene
  await row.getByRole("link", { name: "プレビュー" }).click();
  await expect(pageB.getByTestId("preview-badge")).toBeVisible({ timeout: 30_000 });
  await expect(pageB.getByTestId("scene")).toHaveAttribute("data-scene-type", original[0]!.type);
  expect(await baseText(pageB.getByTestId("progress"))).toBe(`1 / ${original.length}`);
});

test("a file that is not an activity, of an unknown version, too large, or lost on the network shows why, and nothing is created", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { school, teacher } = await makeSchool(0);
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/activities");
  const error = page.getByTestId("import-activity-error");
  const tryFile = async (name: string, body: string | Buffer) => {
    await page
      .getByTestId("activity-file")
      .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.isBuffer(body) ? body : Buffer.from(body) });
    await page.getByTestId("import-activity-submit").click();
  };

  await tryFile(
    "future.json",
    JSON.stringify({ format: "manabiya-activity", version: 9, title: "x", actorType: "student", scenes: [] }),
  );
  await expect(error).toHaveAttribute("data-code", "versionUnknown", { timeout: 30_000 });
  expect(await baseText(error)).toBe(
    "このファイルのバージョン「9」には対応していません（対応しているのはバージョン1です）。",
  );

  await tryFile("photo.json", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]));
  await expect(error).toHaveAttribute("data-code", "binary", { timeout: 30_000 });

  await tryFile("huge.json", " ".repeat(1000 * 1024));
  await expect(error).toHaveAttribute("data-code", "tooLarge");
  expect(await baseText(error)).toBe("ファイルが大きすぎます（960 KBまで）。");

  await tryFile("broken.json", '{"format": "manabiya-activity", ');
  await expect(error).toHaveAttribute("data-code", "notJson", { timeout: 30_000 });
  await expectAccessible(page);

  // a good file whose request the network drops: "try again", and the page stays usable
  await page.route("**/dashboard/teacher/activities", (route) =>
    route.request().method() === "POST" ? route.abort() : route.continue(),
  );
  await tryFile(
    "good.json",
    JSON.stringify({
      format: "manabiya-activity",
      version: 1,
      title: "届かない",
      actorType: "student",
      scenes: [{ id: "s1", type: "info", content: { prompt: "p" } }],
    }),
  );
  await expect(error).toHaveAttribute("data-code", "INTERNAL", { timeout: 30_000 });
  expect(await baseText(error)).toBe("取り込めませんでした。もう一度お試しください。");
  await expect(page.getByTestId("import-activity-submit")).toBeEnabled();
  expect(await e2eDb().activity.count({ where: { schoolId: school.id } })).toBe(0);
});
