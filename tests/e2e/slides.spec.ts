import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { craftPdf } from "../support/pdf-craft";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { editUrl, expectAccessible, expectNotification } from "./helpers";

const signedIn = signedInBrowsers();

const sendPdf = (page: Page, name: string, buffer: Buffer) =>
  page.getByTestId("slides-file").setInputFiles({ name, mimeType: "application/pdf", buffer });

test("a teacher brings a 3-page PDF in as three scenes with the pages as pictures; a PDF that needs a password is refused in words and adds nothing", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, school } = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), { templateId: "science-dissolve", schoolId: school.id });
  const before = (await scenesOf(activity.id)).length;
  const page = await signedIn(browser, teacher.email!);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(editUrl(activity.id));
  const items = page.getByTestId("scene-item");
  await expect(items).toHaveCount(before);

  await sendPdf(page, "ひみつ.pdf", craftPdf({ pages: 2, password: true }));
  await expect(page.getByTestId("slides-problem")).toHaveText(
    "パスワードで保護されたPDFは取り込めません。保護を外したPDFを選んでください。",
  );
  await expect(items).toHaveCount(before);

  await sendPdf(page, "水よう液のスライド.pdf", craftPdf({ pages: 3 }));
  await expectNotification(page, "3ページをシーンとして追加しました。それぞれに問いや説明を書き足せます。");
  await expect(page.getByTestId("slides-problem")).toHaveCount(0);
  await expect(items).toHaveCount(before + 3);
  await expect(items.last()).toContainText("水よう液のスライド（3ページ目）");
  await expect(page.getByTestId("slides-progress")).toHaveCount(0);
  await expectAccessible(page);
  await page.getByTestId("slides-file").scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("slides-1280.png") });

  // the page is the scene's picture, served to the school's teacher
  const last = (await scenesOf(activity.id)).at(-1)!;
  const image = (last.content as { image: { id: string; width: number; height: number } }).image;
  expect(image).toMatchObject({ width: 1600, height: 1200 });
  const served = await page.request.get(`/api/v1/images/${image.id}`);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toMatch(/^image\//);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("slides-file").scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("slides-phone.png") });

  // the page becomes a question: its prompt and picture stay, the new type's options come in
  await page.setViewportSize({ width: 1280, height: 720 });
  await items.last().getByTestId("edit-scene").click();
  const form = items.last().getByTestId("scene-form");
  await form.getByTestId("retype-type").selectOption("single_choice");
  await form.getByTestId("retype-scene").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("このシーンを「1つ選ぶ」にします。");
  await dialog.getByRole("button", { name: "種類を変える" }).click();
  await expectNotification(page, "「1つ選ぶ」に変えました。");
  await expect(items.last().locator(".order-type")).toHaveText("1つ選ぶ");
  await expect(items.last().getByTestId("scene-form").locator('[data-field="content.options.0.label"]')).toBeVisible();
  const retyped = (await scenesOf(activity.id)).at(-1)!;
  expect(retyped.type).toBe("single_choice");
  expect(retyped.content).toMatchObject({ prompt: "水よう液のスライド（3ページ|目(め)）", image: { id: image.id } });
  await page.screenshot({ path: test.info().outputPath("retyped-1280.png") });
});

test("a worksheet PDF brought in as drawing scenes: the page is the canvas's background in the preview, under the strokes, and the setting shows in the form", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, school } = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), { templateId: "science-dissolve", schoolId: school.id });
  const page = await signedIn(browser, teacher.email!);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(editUrl(activity.id));
  await page.getByTestId("slides-as").selectOption("drawing");
  await sendPdf(page, "計算プリント.pdf", craftPdf({ pages: 1 }));
  await expectNotification(page, "1ページをシーンとして追加しました。それぞれに問いや説明を書き足せます。");
  const item = page.getByTestId("scene-item").last();
  await expect(item).toContainText("計算プリント（1ページ目）");
  await item.getByTestId("edit-scene").click();
  const form = item.getByTestId("scene-form");
  await expect(form.locator('[data-field="content.onImage"]')).toBeChecked();

  // the preview's canvas: the page under it (loaded), no picture above it, and a stroke drawn over it
  const canvas = form.getByTestId("drawing-canvas");
  const background = canvas.getByTestId("drawing-background");
  await expect(background).toHaveCount(1);
  await expect(canvas).toHaveAccessibleName(/^「計算プリント（1ページ目）」の上に絵をかく場所。/);
  const href = await background.getAttribute("href");
  expect(href).toMatch(/^\/api\/v1\/images\/[0-9a-f-]{36}$/);
  expect((await page.request.get(href!)).status()).toBe(200);
  await expect(form.getByTestId("scene-image")).toHaveCount(0);
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6, { steps: 8 });
  await page.mouse.up();
  await expect(canvas).toHaveAttribute("data-strokes", "1");
  await page.screenshot({ path: test.info().outputPath("worksheet-1280.png") });

  // unticked, the page is a picture above an empty canvas again
  await form.locator('[data-field="content.onImage"]').uncheck();
  await expect(canvas.getByTestId("drawing-background")).toHaveCount(0);
  await expect(form.getByTestId("scene-image")).toHaveCount(1);
});
