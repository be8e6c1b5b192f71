import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { playDissolveToChoice } from "./dissolve";
import { uploadImage } from "./editor-keys";
import { editUrl, expectAccessible, expectNotification } from "./helpers";

const signedIn = signedInBrowsers();
const picture = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
type Placed = {
  image?: { id: string; alt: string; width: number; height: number };
  options: { image?: { id: string; alt: string } }[];
};
const contentOf = async (sceneId: string) =>
  (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: sceneId } })).content as Placed;

const upload = uploadImage;

/** The student's or preview's image: described by its alt text and really decoded. */
async function expectShown(page: Page, img: Locator, alt: string) {
  await expect(img).toHaveAttribute("alt", alt);
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  // never wider than its box (a phone's 360 px)
  const box = await img.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test("a teacher places images with alt text on a scene and an option; a student of the school sees them, another school's teacher gets 404", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { teacher, school, students } = await makeSchool(1);
  const other = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const choice = (await scenesOf(activity.id))[2]!; // single_choice "solution"
  const page = await signedIn(browser, teacher.email!);
  await page.goto(editUrl(activity.id));
  const item = page.locator(`[data-scene-id="${choice.id}"][data-testid="scene-item"]`);
  await item.getByTestId("edit-scene").click();
  const form = item.getByTestId("scene-form");
  const sceneField = form.locator('[data-field="content.image"]');
  const option1 = form.locator('[data-field="content.options.0.image"]');
  const option2 = form.locator('[data-field="content.options.1.image"]');

  // a GIF named photo.png is refused by what it is, with the reason
  await upload(sceneField, {
    name: "photo.png",
    mimeType: "image/png",
    buffer: await sharp({ create: { width: 10, height: 10, channels: 3, background: "red" } })
      .gif()
      .toBuffer(),
  });
  await expect(sceneField.getByTestId("image-problem")).toHaveText(
    "この種類のファイルは使えません。PNG、JPEG、WebP の画像を選んでください。",
  );
  await expect(sceneField.getByTestId("image-alt")).toHaveCount(0);

  // a real picture (larger than the kept size): uploaded, then the form will not save it without alt text
  await upload(sceneField, { name: "beaker.png", mimeType: "image/png", buffer: await picture(2000, 1000, "#3366cc") });
  await expect(sceneField.getByTestId("image-alt")).toBeVisible();
  await form.getByTestId("save-scene").click();
  await expect(sceneField.getByTestId("field-error")).toHaveText("画像の説明を書いてください。");
  expect((await contentOf(choice.id)).image).toBeUndefined();
  await sceneField.getByTestId("image-alt").fill("青いビーカーの写真");
  await upload(option1, { name: "clear.png", mimeType: "image/png", buffer: await picture(300, 200, "#eeeeee") });
  await option1.getByTestId("image-alt").fill("すき通った水");
  // an image placed by mistake is removed after a confirmation
  await upload(option2, { name: "wrong.png", mimeType: "image/png", buffer: await picture(50, 50, "#000000") });
  await option2.getByTestId("image-remove").click();
  await page.getByTestId("confirm-dialog").getByTestId("confirm-ok").click();
  await expect(option2.getByTestId("image-alt")).toHaveCount(0);
  await expect(form.getByTestId("scene-preview").getByTestId("scene-image")).toHaveCount(2);
  await expectAccessible(page);
  await form.getByTestId("save-scene").click();
  await expectNotification(page, "シーンを保存しました");
  await expect
    .poll(async () => (await contentOf(choice.id)).image?.alt, { timeout: 30_000 })
    .toBe("青いビーカーの写真");
  const saved = await contentOf(choice.id);
  expect(saved.image).toMatchObject({ width: 1600, height: 800 });
  expect(saved.options[0]!.image).toMatchObject({ alt: "すき通った水" });
  expect(saved.options[1]!.image).toBeUndefined();

  // the school's student, on a phone
  const student = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
  try {
    await playDissolveToChoice(student, students[0]!.email!, activity.id);
    const scene = student.getByTestId("scene");
    await expectShown(student, scene.locator("img.scene-image"), "青いビーカーの写真");
    await expectShown(student, student.locator('[data-option="clear"] img'), "すき通った水");
    await expect(scene.locator("img.scene-image")).toHaveAttribute("width", "1600");
    await expect(scene.locator("img.scene-image")).toHaveAttribute("loading", "lazy");
    await expectAccessible(student);
  } finally {
    await student.context().close();
  }

  // the URL is nothing to another school's teacher (404 as for an id that does not exist), and carries its headers
  const url = `/api/v1/images/${saved.image!.id}`;
  const own = await page.request.get(url);
  expect(own.status()).toBe(200);
  expect(own.headers()).toMatchObject({
    "content-type": "image/png",
    "cache-control": "private, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
  });
  expect(own.headers()["content-security-policy"]).toMatch(/^default-src 'none'/);
  const stranger = await signedIn(browser, other.teacher.email!);
  const refused = await stranger.request.get(url);
  expect(refused.status()).toBe(404);
  expect(await refused.json()).toEqual({ ok: false, code: "NOT_FOUND" });
});

test("an activity with images exported by one school and imported by another plays with the images, the other school's own copies", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const a = await makeSchool(0);
  const b = await makeSchool(1);
  const title = `図の実験${a.tag}`;
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: a.school.id,
    title,
    mode: "self",
  });
  const choice = (await scenesOf(activity.id))[2]!;
  const pageA = await signedIn(browser, a.teacher.email!);
  await pageA.goto(editUrl(activity.id));
  const item = pageA.locator(`[data-scene-id="${choice.id}"][data-testid="scene-item"]`);
  await item.getByTestId("edit-scene").click();
  const sceneField = item.getByTestId("scene-form").locator('[data-field="content.image"]');
  await upload(sceneField, {
    name: "beaker.jpg",
    mimeType: "image/jpeg",
    buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: "#cc3333" } })
      .jpeg()
      .toBuffer(),
  });
  await sceneField.getByTestId("image-alt").fill("赤い液体");
  await item.getByTestId("save-scene").click();
  await expectNotification(pageA, "シーンを保存しました");
  await expect.poll(async () => (await contentOf(choice.id)).image?.alt, { timeout: 30_000 }).toBe("赤い液体");

  await pageA.goto("/dashboard/teacher/activities");
  const downloading = pageA.waitForEvent("download");
  await pageA.locator(`tr[data-activity-id="${activity.id}"]`).getByTestId("export-activity").click();
  const saved = await (await downloading).path();
  const file = JSON.parse(await readFile(saved, "utf8"));
  expect(Object.values(file.images)).toEqual([expect.objectContaining({ type: "image/jpeg" })]);

  const pageB = await signedIn(browser, b.teacher.email!);
  await pageB.goto("/dashboard/teacher/activities");
  await pageB.getByTestId("activity-file").setInputFiles(saved);
  await pageB.getByTestId("import-activity-submit").click();
  await expectNotification(pageB, `「${title}」を取り込みました。`);
  await expect
    .poll(() => e2eDb().activity.count({ where: { schoolId: b.school.id, title } }), { timeout: 30_000 })
    .toBe(1);
  const imported = await e2eDb().activity.findFirstOrThrow({
    where: { schoolId: b.school.id, title },
    select: { id: true },
  });
  await e2eDb().activity.update({ where: { id: imported.id }, data: { mode: "self" } });
  const copy = (await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: imported.id, position: 2 } }))
    .content as Placed;
  expect(copy.image!.id).not.toBe((await contentOf(choice.id)).image!.id);

  const student = await (await browser.newContext()).newPage();
  try {
    await playDissolveToChoice(student, b.students[0]!.email!, imported.id);
    await expectShown(student, student.getByTestId("scene").locator("img.scene-image"), "赤い液体");
  } finally {
    await student.context().close();
  }
});

test("an activity whose images make a file larger than an import accepts: the export says why in the page and downloads nothing", async ({
  browser,
}) => {
  const a = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "math-linear-equations",
    schoolId: a.school.id,
    title: `重い図${a.tag}`,
  });
  const page = await signedIn(browser, a.teacher.email!);
  await page.goto("/dashboard/teacher/activities");
  // noise does not compress: one such picture is stored near the 1 MiB cap, more than an import file holds
  const noise = await sharp({
    create: {
      width: 560,
      height: 560,
      channels: 3,
      background: "black",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
  const stored = await page.request.post("/api/v1/images", {
    data: noise,
    headers: { "content-type": "application/octet-stream", origin: new URL(page.url()).origin },
  });
  expect(stored.status()).toBe(200);
  const { data } = (await stored.json()) as { data: { id: string } };
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "single_choice" },
    select: { id: true, content: true },
  });
  await e2eDb().activityScene.update({
    where: { id: scene.id },
    data: { content: { ...(scene.content as object), image: { id: data.id, alt: "ノイズ", width: 560, height: 560 } } },
  });

  let downloads = 0;
  page.on("download", () => downloads++);
  await page.locator(`tr[data-activity-id="${activity.id}"]`).getByTestId("export-activity").click();
  await expectNotification(page, "画像が多すぎて");
  await expect(page).toHaveURL(/\/dashboard\/teacher\/activities$/);
  expect(downloads).toBe(0);
});
