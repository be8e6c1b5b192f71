import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool } from "./db";
import { mouseLine } from "./drawing-input";
import { rubyByKeyboard, uploadImage } from "./editor-keys";
import { baseText, expectNotification, tabTo } from "./helpers";

/**
 * Writing a lesson, the whole path as a school meets it: a teacher writes a lesson from an empty form
 * (one scene of every type, ruby and math, correct answers; one scene by keyboard alone),
 * students answer it self-paced and live on phones, the teacher sees the marks and the
 * drawing, and the lesson travels as a file to another school, where it plays the same.
 */
const signedIn = signedInBrowsers();
const PHONE = { width: 360, height: 740 };
const scenesOf = (activityId: string) =>
  e2eDb().activityScene.findMany({
    where: { activityId },
    orderBy: { position: "asc" },
    select: { id: true, type: true, content: true, position: true },
  });

const field = (form: Locator, path: string) => form.locator(`[data-field="content.${path}"]`);
const correct = (form: Locator, options: string, n: number) =>
  form
    .locator(`[data-field="content.${options}"]`)
    .getByTestId("option-correct")
    .nth(n - 1);
/** How many notifications with `text` the page has shown (counted as they appear; see Editor). */
const notificationsShown = (page: Page, text: string) =>
  page.evaluate(
    (t) => (window as unknown as { __shown?: string[] }).__shown?.filter((x) => x.includes(t)).length ?? 0,
    text,
  );

/**
 * The teacher's editor, one change at a time (the form also saves by itself as the teacher
 * pauses, so changes are waited for by what they store, not by counting versions).
 */
class Editor {
  constructor(private page: Page) {}

  /** Counts every notification as it appears (the same text may be shown more than once). */
  static async watch(page: Page) {
    await page.addInitScript(() => {
      const w = window as unknown as { __shown: string[] };
      w.__shown = [];
      const seen = new WeakSet<Element>();
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="notification"]')) {
          if (seen.has(el)) continue;
          seen.add(el);
          w.__shown.push(el.textContent ?? "");
        }
      }).observe(document, { subtree: true, childList: true });
    });
  }

  /** Adds a scene of `type` at the end; the editor opens its form. */
  async add(type: string): Promise<{ form: Locator; id: string }> {
    const items = this.page.getByTestId("scene-item");
    const before = await items.count();
    await this.page.getByTestId("add-type").selectOption(type);
    await this.page.getByTestId("add-scene").click();
    await expect(items).toHaveCount(before + 1);
    const form = items.nth(before).getByTestId("scene-form");
    await expect(form).toBeVisible();
    return { form, id: (await items.nth(before).getAttribute("data-scene-id"))! };
  }

  /** Saves the form; done when the scene holds the content the form shows. */
  async save(form: Locator, sceneId: string, prompt: string) {
    await form.getByTestId("save-scene").click();
    await expect
      .poll(
        async () =>
          ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: sceneId } })).content as { prompt: string })
            .prompt,
      )
      .toBe(prompt);
    await expect(form.getByTestId("save-scene")).not.toHaveAttribute("aria-busy", "true");
  }

  /**
   * The information scene by keyboard alone: the text, ruby for 「濃さ」 and a fraction through
   * the toolbar, saved once (the dialogs' Enter inserts, it does not save the scene).
   */
  async infoByKeyboard() {
    const page = this.page;
    const item = page.getByTestId("scene-item").first();
    await item.getByTestId("edit-scene").focus();
    await page.keyboard.press("Enter");
    const form = item.getByTestId("scene-form");
    const prompt = field(form, "prompt");
    await expect(prompt).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("食塩水の濃さ");
    await rubyByKeyboard(page, form, prompt, 2, "こさ");
    await page.keyboard.press("End");
    await page.keyboard.type(" は ");
    await page.keyboard.press("ControlOrMeta+m");
    await expect(page.getByTestId("math-tex")).toBeFocused();
    await page.keyboard.type("\\frac{a}{b}");
    await expect(page.getByTestId("math-preview").locator(".katex")).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(prompt).toHaveValue("食塩水の|濃さ(こさ) は `\\frac{a}{b}`");
    await tabTo(page, form.getByTestId("save-scene"), 40);
    await page.keyboard.press("Enter");
    await expectNotification(page, "シーンを保存しました");
    // one explicit save: the dialogs' Enter did not submit the scene's form too (saves run in
    // turn, so one made by a dialog would have been shown before this one)
    expect(await notificationsShown(page, "シーンを保存しました")).toBe(1);
  }

  /** The six answerable scenes after the information scene, with their correct answers. */
  async answerableScenes() {
    let { form, id } = await this.add("single_choice");
    const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    await uploadImage(form.locator('[data-field="content.image"]'), {
      name: "beaker.png",
      mimeType: "image/png",
      buffer: picture,
    });
    await form.locator('[data-field="content.image"]').getByTestId("image-alt").fill("青い液体の入ったビーカー");
    await field(form, "options.0.label").fill("食塩水");
    await field(form, "options.1.label").fill("牛乳");
    await correct(form, "options", 1).check();
    await field(form, "prompt").fill("水溶液はどれ？");
    await this.save(form, id, "水溶液はどれ？");

    ({ form, id } = await this.add("multiple_choice"));
    await field(form, "options.0.label").fill("砂糖");
    await field(form, "options.1.label").fill("食塩");
    await correct(form, "options", 1).check();
    await correct(form, "options", 2).check();
    await field(form, "prompt").fill("とけるものを全部えらびましょう。");
    await this.save(form, id, "とけるものを全部えらびましょう。");

    ({ form, id } = await this.add("free_text"));
    await field(form, "prompt").fill("気づいたことを書きましょう。");
    await this.save(form, id, "気づいたことを書きましょう。");

    ({ form, id } = await this.add("scale"));
    await field(form, "prompt").fill("どのくらい自信がありますか。");
    await this.save(form, id, "どのくらい自信がありますか。");

    ({ form, id } = await this.add("two_step"));
    await field(form, "first.options.0.label").fill("変わらない");
    await field(form, "first.options.1.label").fill("軽くなる");
    await correct(form, "first.options", 1).check();
    await correct(form, "second.options", 2).check();
    await field(form, "prompt").fill("重さはどうなる？");
    await this.save(form, id, "重さはどうなる？");

    ({ form, id } = await this.add("drawing"));
    await field(form, "prompt").fill("ビーカーの中の様子をかきましょう。");
    await this.save(form, id, "ビーカーの中の様子をかきましょう。");
  }
}

/** A student plays every scene of the activity on their own, from its card on the home. */
async function playSelfPaced(kid: Page, activityId: string) {
  await kid.getByTestId("my-activities").locator(`[data-activity-id="${activityId}"]`).getByTestId("go-start").click();
  const scene = kid.getByTestId("scene");
  await expect(scene.locator("ruby rt")).toHaveText("こさ");
  await expect(scene.locator(".katex")).toHaveCount(1);
  await kid.getByTestId("next").click();
  const img = scene.getByRole("img", { name: "青い液体の入ったビーカー" });
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 30_000 })
    .toBeGreaterThan(0);
  await kid.locator('[data-option="o1"] input').check();
  await kid.getByTestId("next").click();
  await kid.locator('[data-option="o1"] input').check();
  await kid.locator('[data-option="o2"] input').check();
  await kid.getByTestId("next").click();
  await kid.locator("textarea").fill("とけると見えなくなる");
  await kid.getByTestId("next").click();
  await kid.locator('.scale-point input[value="4"]').check();
  await kid.getByTestId("next").click();
  await kid.locator('[data-option="o1"] input').check();
  await kid.locator('[data-testid="second-step"] [data-option="o2"] input').check();
  await kid.getByTestId("reason").locator("textarea").fill("水と食塩はなくならないから");
  await kid.getByTestId("next").click();
  const canvas = kid.getByTestId("drawing-canvas");
  await mouseLine(kid, canvas, [0.2, 0.3], [0.8, 0.6]);
  await expect(canvas).toHaveAttribute("data-strokes", "1");
  await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 30_000 });
  await kid.getByTestId("next").click();
  await expect(kid.getByTestId("solo-done")).toBeVisible();
}

test("a teacher writes a lesson of every scene type from an empty form; students answer it self-paced and live on phones; the teacher sees marks and the drawing; it plays the same in another school", async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const a = await makeSchool(2);
  const b = await makeSchool(1);
  const title = `まるごと授業${a.tag}`;
  const teacher = await signedIn(browser, a.teacher.email!);
  await Editor.watch(teacher);
  await teacher.goto("/dashboard/teacher/activities");
  await teacher.getByTestId("blank-activity").getByTestId("blank-title").fill(title);
  await teacher.getByTestId("blank-activity").getByTestId("create-blank").click();
  await expect(teacher).toHaveURL(/\/dashboard\/teacher\/activities\/edit\/[0-9a-f-]{36}$/);
  const activityId = new URL(teacher.url()).pathname.split("/").pop()!;

  const editor = new Editor(teacher);
  await editor.infoByKeyboard();
  await editor.answerableScenes();
  await teacher.getByLabel("正誤の表示（正解にしるしをつけた問題）").selectOption("at_end");
  await expectNotification(teacher, "正誤の表示を変えました");
  const scenes = await scenesOf(activityId);
  expect(scenes.map((s) => s.type)).toEqual([
    "info",
    "single_choice",
    "multiple_choice",
    "free_text",
    "scale",
    "two_step",
    "drawing",
  ]);

  // self-paced on a phone, then the verdicts on the student's own result page
  await teacher.goto("/dashboard/teacher/activities");
  await teacher.locator(`tr[data-activity-id="${activityId}"]`).getByTestId("mode-select").selectOption("self");
  await expectNotification(teacher, "モードを変更しました");
  const kid = await signedIn(browser, a.students[0]!.email!, PHONE);
  await playSelfPaced(kid, activityId);
  expect(await kid.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await kid.getByTestId("see-answers").click();
  await expect(kid.getByTestId("verdict")).toHaveCount(3);
  for (const verdict of await kid.getByTestId("verdict").all()) expect(await baseText(verdict)).toContain("正解");
  await expect
    .poll(() => e2eDb().response.count({ where: { activityId, userId: a.students[0]!.id, mode: "self" } }))
    .toBe(7);

  // live on a phone: the teacher leads, the student answers the choice scene
  await teacher.goto(`/dashboard/teacher/activities/guide/${activityId}`);
  await teacher.getByTestId("start-session").click();
  const live = await signedIn(browser, a.students[1]!.email!, PHONE);
  await live.goto(`/dashboard/student/activities/session/${activityId}`);
  await expect(live.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes[0]!.id);
  await expect(live.getByTestId("scene").locator(".katex")).toHaveCount(1);
  await teacher.getByTestId("guide-jump").selectOption(scenes[1]!.id);
  await expect(live.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes[1]!.id);
  await live.locator('[data-option="o2"] input').check();
  await expect
    .poll(() => e2eDb().response.count({ where: { activityId, userId: a.students[1]!.id, mode: "guide" } }))
    .toBe(1);

  // the teacher marks the free text answer (keyboard: 1 = correct) with a comment
  await teacher.goto(`/dashboard/teacher/activities/response/${activityId}/${a.students[0]!.id}`);
  const markForm = teacher.locator(`[data-scene-id="${scenes[3]!.id}"]`).getByTestId("mark-form");
  await markForm.getByTestId("mark-none").focus();
  await teacher.keyboard.press("1");
  await markForm.getByTestId("mark-comment").fill("よく見ています");
  await markForm.getByTestId("mark-comment").press("Control+Enter");
  await expectNotification(teacher, "採点を保存しました");

  // the teacher: correct rates from both students and the mark, the drawing as SVG
  await teacher.goto(`/dashboard/teacher/activities/stats/${activityId}`);
  await expect(teacher.locator(`[data-scene-id="${scenes[3]!.id}"]`).getByTestId("correct-rate")).toHaveAttribute(
    "data-correct",
    "1",
  );
  await expect(teacher.locator(`[data-scene-id="${scenes[1]!.id}"] [data-testid="correct-rate"]`)).toContainText(
    "正答率 50%（1/2人）",
  );
  await expect(teacher.locator(`[data-scene-id="${scenes[5]!.id}"] [data-testid="correct-rate"]`)).toContainText(
    "正答率 100%（1/1人）",
  );
  await expect(
    teacher.locator(`[data-scene-id="${scenes[6]!.id}"]`).getByTestId("drawing-gallery").getByTestId("drawing-svg"),
  ).toHaveCount(1);

  // the file to another school: imported, the same scenes, and it plays the same
  await teacher.goto("/dashboard/teacher/activities");
  const downloading = teacher.waitForEvent("download");
  await teacher.locator(`tr[data-activity-id="${activityId}"]`).getByTestId("export-activity").click();
  const saved = await (await downloading).path();
  expect(JSON.parse(await readFile(saved, "utf8"))).toMatchObject({ format: "manabiya-activity", title });
  const other = await signedIn(browser, b.teacher.email!);
  await other.goto("/dashboard/teacher/activities");
  await other.getByTestId("activity-file").setInputFiles(saved);
  await other.getByTestId("import-activity-submit").click();
  await expectNotification(other, `「${title}」を取り込みました。`);
  const imported = await e2eDb().activity.findFirstOrThrow({
    where: { schoolId: b.school.id, title },
    select: { id: true, feedback: true },
  });
  expect(imported.feedback).toBe("at_end");
  // the same scenes, but the images are the other school's own copies (new ids)
  const anyImageId = (content: unknown) =>
    JSON.parse(JSON.stringify(content), (k, v: unknown) =>
      k === "image" && v ? { ...(v as object), id: "(copy)" } : v,
    ) as unknown;
  const strip = (rows: Awaited<ReturnType<typeof scenesOf>>) =>
    rows.map(({ type, content, position }) => ({ type, content: anyImageId(content), position }));
  const copies = await scenesOf(imported.id);
  expect(strip(copies)).toEqual(strip(scenes));
  expect((copies[1]!.content as { image: { id: string } }).image.id).not.toBe(
    (scenes[1]!.content as { image: { id: string } }).image.id,
  );
  await other.reload();
  await other.locator(`tr[data-activity-id="${imported.id}"]`).getByTestId("mode-select").selectOption("self");
  await expectNotification(other, "モードを変更しました");
  const kidB = await signedIn(browser, b.students[0]!.email!, PHONE);
  await playSelfPaced(kidB, imported.id);
  await kidB.getByTestId("see-answers").click();
  await expect(kidB.getByTestId("verdict")).toHaveCount(3);
});
