import { expect, type Locator, type Page, test } from "@playwright/test";
import { sceneHasKey } from "../../features/scenes/shared/key";
import { SCENE_TYPES, type SceneType, sceneSchema } from "../../features/scenes/shared/schema";
import { craftPdf } from "../support/pdf-craft";
import { devices, signedInBrowsers } from "./browsers";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool } from "./db";
import { mouseLine } from "./drawing-input";
import { projectorLinkFrom, sceneOf } from "./guide";
import { baseText, expectAccessible, expectNotification } from "./helpers";

/**
 * Slides to every question type in one lesson: a teacher brings a small PDF in (one page per scene type), turns each
 * page into a scene of its type with its correct answers, runs it live (a student answers every scene, the
 * projector shows each chart, 「正解を見せる」 gives the student ○/× and the key) and then another student does it
 * solo with feedback after each answer. One entry per scene type below: a new type is one more entry (the record
 * is keyed by SCENE_TYPES, so the type checker asks for it).
 */
const signedIn = signedInBrowsers();
const device = devices();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 720 };
const LANGS = ["ja", "ja-ruby", "ja-kana"] as const;

interface TypeSteps {
  /** Sets the correct answers in the scene's open form (nothing to set: the default content has its key, or none). */
  key?: (form: Locator) => Promise<void>;
  /** Answers the scene a student sees; nothing for a scene without an answer. */
  answer?: (scene: Locator, page: Page) => Promise<void>;
  /** The projector's chart of one answer, inside its results. */
  chart?: (results: Locator) => Locator;
  /** Whether the answer given above is right by the key (a scene with a key); undefined: no key. */
  right?: boolean;
}

const field = (form: Locator, path: string) => form.locator(`[data-field="content.${path}"]`);
const optionCorrect = (form: Locator, options: string, n: number) =>
  field(form, options).getByTestId("option-correct").nth(n);
const bars = (results: Locator) => results.getByTestId("results-bars").first();

const STEPS: Record<SceneType, TypeSteps> = {
  info: {},
  single_choice: {
    key: (form) => optionCorrect(form, "options", 0).check(),
    answer: (scene) => scene.locator('[data-option="o1"] input').check(),
    chart: bars,
    right: true,
  },
  multiple_choice: {
    key: async (form) => {
      await optionCorrect(form, "options", 0).check();
      await optionCorrect(form, "options", 1).check();
    },
    answer: (scene) => scene.locator('[data-option="o1"] input').check(),
    chart: bars,
    right: false,
  },
  free_text: {
    answer: (scene) => scene.locator("textarea").fill("とけて見えなくなる"),
    chart: (results) => results.getByTestId("result-text"),
  },
  scale: {
    answer: (scene) => scene.locator('.scale-point input[value="4"]').check(),
    chart: bars,
  },
  two_step: {
    key: (form) => optionCorrect(form, "first.options", 0).check(),
    answer: async (scene) => {
      await scene.locator('[data-option="o1"] input').first().check();
      await scene.locator('[data-testid="second-step"] [data-option="o2"] input').check();
      await scene.getByTestId("reason").locator("textarea").fill("水と食塩はなくならないから");
    },
    chart: bars,
    right: true,
  },
  drawing: {
    answer: async (scene, page) => {
      const canvas = scene.getByTestId("drawing-canvas");
      await mouseLine(page, canvas, [0.2, 0.3], [0.8, 0.6]);
      await expect(canvas).toHaveAttribute("data-strokes", "1");
    },
    chart: (results) => results.getByTestId("projector-drawing"),
  },
  ordering: {
    // the order a student is shown first is never the right one
    answer: (scene) => scene.getByTestId("order-confirm").click(),
    chart: (results) => results.getByTestId("result-position").first(),
    right: false,
  },
  matching: {
    // the default pairs: the first left item with the first right item, the second with the second
    answer: async (scene) => {
      await scene.getByTestId("match-1").selectOption({ index: 1 });
      await scene.getByTestId("match-2").selectOption({ index: 2 });
    },
    chart: (results) => results.getByTestId("result-pair").first(),
    right: true,
  },
  fill_blanks: {
    // the default text 「水は[[100/百]]度でふっとうします。」: a full-width answer is folded to the accepted one
    answer: (scene) => scene.getByTestId("blank-input").first().fill("１００"),
    chart: (results) => results.getByTestId("blank-result").first(),
    right: true,
  },
  number: {
    key: async (form) => {
      await field(form, "unit").fill("cm");
      await field(form, "correct").fill("12.5");
      await field(form, "tolerance").fill("0.5");
    },
    answer: (scene) => scene.getByTestId("number-input").fill("13.2"),
    chart: (results) => results.getByTestId("histogram-bar").first(),
    right: false,
  },
  word_cloud: {
    answer: (scene) => scene.getByTestId("word-input").first().fill("とうめい"),
    chart: (results) => results.getByTestId("cloud-word").first(),
  },
};

type Scene = { id: string; type: string; content: unknown };
const scenesOf = (activityId: string): Promise<Scene[]> =>
  e2eDb().activityScene.findMany({
    where: { activityId },
    orderBy: { position: "asc" },
    select: { id: true, type: true, content: true },
  });

/** Turns the page scene `item` into a scene of `type` (its title and page stay), its key set and saved. */
async function retype(page: Page, item: Locator, sceneId: string, type: SceneType) {
  await item.getByTestId("edit-scene").click();
  const form = item.getByTestId("scene-form");
  if (type !== "info") {
    await form.getByTestId("retype-type").selectOption(type);
    await form.getByTestId("retype-scene").click();
    await page.getByRole("dialog").getByRole("button", { name: "種類を変える" }).click();
    await expect
      .poll(async () => (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: sceneId } })).type, {
        timeout: 30_000,
      })
      .toBe(type);
  }
  const key = STEPS[type].key;
  if (!key) return;
  await key(form);
  await form.getByTestId("save-scene").click();
  await expect(form.getByTestId("save-scene")).not.toHaveAttribute("aria-busy", "true");
}

/** Whether the stored scene has a key (features/scenes/shared/key.ts). */
const hasKey = (s: Scene) => sceneHasKey(sceneSchema.parse(s));

test("a teacher brings a PDF in as one scene of every type with its correct answers, runs it live with a student and a projector, and another student does it solo with feedback", async ({
  browser,
}) => {
  // eleven scenes made in the editor, played live on three screens and again solo: minutes on a loaded machine
  test.setTimeout(900_000);
  const { teacher, students } = await makeSchool(2);
  const teacherPage = await signedIn(browser, teacher.email!, DESKTOP);
  await teacherPage.goto("/dashboard/teacher/activities");
  const blank = teacherPage.getByTestId("blank-activity");
  await blank.getByTestId("blank-title").fill("水よう液の授業");
  await blank.getByTestId("create-blank").click();
  await expect(teacherPage).toHaveURL(/\/dashboard\/teacher\/activities\/edit\/[0-9a-f-]{36}$/);
  const activityId = new URL(teacherPage.url()).pathname.split("/").pop()!;
  const before = (await scenesOf(activityId)).length;

  // the PDF: a page per scene type, each a scene with the page as its picture
  const pages = SCENE_TYPES.length;
  await teacherPage
    .getByTestId("slides-file")
    .setInputFiles({ name: "水よう液.pdf", mimeType: "application/pdf", buffer: craftPdf({ pages }) });
  // each page is drawn at idle priority, one at a time: the teacher watches its progress for as long as that takes
  const items = teacherPage.getByTestId("scene-item");
  await expect(items).toHaveCount(before + pages, { timeout: 180_000 });
  await expectNotification(teacherPage, `${pages}ページをシーンとして追加しました。`);
  const imported = (await scenesOf(activityId)).slice(before);
  for (const [i, type] of SCENE_TYPES.entries())
    await retype(teacherPage, items.nth(before + i), imported[i]!.id, type);
  const scenes = (await scenesOf(activityId)).slice(before);
  expect(scenes.map((s) => s.type)).toEqual([...SCENE_TYPES]);
  for (const s of scenes) expect(s.content, s.type).toMatchObject({ image: { width: 1600, height: 1200 } });
  await expect
    .poll(async () =>
      (await scenesOf(activityId))
        .slice(before)
        .filter(hasKey)
        .map((s) => s.type),
    )
    .toEqual(SCENE_TYPES.filter((t) => STEPS[t].right !== undefined));
  await teacherPage.getByTestId("feedback-select").selectOption("after_answer");
  await expectNotification(teacherPage, "正誤の表示を変えました。");

  // live: the teacher's console, the classroom's projector and a student on a phone
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activityId}`);
  await teacherPage.getByTestId("start-session").click();
  const console_ = teacherPage.getByTestId("guide-console");
  await expect(console_).toBeVisible();
  const link = await projectorLinkFrom(teacherPage);
  const projector = await (await device(browser, { viewport: DESKTOP })).newPage();
  await projector.goto(link);
  const screen = projector.getByTestId("projector-live");
  const kid = await signedIn(browser, students[0]!.email!, PHONE);
  await kid.goto(`/dashboard/student/activities/session/${activityId}`);
  for (const [i, type] of SCENE_TYPES.entries()) {
    const scene = scenes[i]!;
    const steps = STEPS[type];
    await teacherPage.getByTestId("guide-jump").selectOption(scene.id);
    await expect(console_).toHaveAttribute("data-scene-id", scene.id);
    await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", scene.id);
    await expect(screen).toHaveAttribute("data-scene-id", scene.id);
    if (!steps.answer) continue;
    await steps.answer(sceneOf(kid).getByTestId("scene"), kid);
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 30_000 });
    await teacherPage.getByTestId("toggle-results").click();
    const results = projector.getByTestId("projector-results");
    await expect(results.getByTestId("results"), type).toHaveAttribute("data-total", "1", { timeout: 30_000 });
    await expect(steps.chart!(results), type).toBeVisible();
    if (steps.right === undefined) continue;
    await teacherPage.getByTestId("toggle-reveal").click();
    await expect(kid.getByTestId("live-verdict"), type).toHaveAttribute(
      "data-verdict",
      steps.right ? "correct" : "incorrect",
    );
    await expect(screen).toHaveAttribute("data-revealed", "true");
    if (type === "fill_blanks") await expect(kid.getByTestId("blank-answers")).toContainText("100");
    if (type === "number") expect(await baseText(kid.getByTestId("number-key"))).toContain("12.5 ± 0.5 cm");
  }
  await expectAccessible(kid);
  await teacherPage.getByTestId("end-session").click();
  await teacherPage.getByRole("dialog").getByRole("button", { name: "セッションを終える" }).click();
  await expect(teacherPage.getByTestId("guide-idle")).toBeVisible();

  // solo: the teacher makes it self-paced; another student answers every scene, then sees each verdict and key
  await teacherPage.goto("/dashboard/teacher/activities");
  await teacherPage.locator(`tr[data-activity-id="${activityId}"]`).getByTestId("mode-select").selectOption("self");
  await expectNotification(teacherPage, "モードを変更しました");
  const solo = await signedIn(browser, students[1]!.email!, PHONE);
  await solo.getByTestId("my-activities").locator(`[data-activity-id="${activityId}"]`).getByTestId("go-start").click();
  const shown = solo.getByTestId("scene");
  // the blank activity's own first scenes, then the PDF's
  for (let i = 0; i < before; i++) {
    await expect(solo.getByText(`${i + 1} / ${before + pages}`)).toBeVisible();
    await solo.getByTestId("next").click();
  }
  for (const type of SCENE_TYPES) {
    await expect(shown).toHaveAttribute("data-scene-type", type);
    const answer = STEPS[type].answer;
    if (answer) {
      await answer(shown, solo);
      await expect(solo.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 30_000 });
    }
    await solo.getByTestId("next").click();
  }
  await expect(solo.getByTestId("solo-done")).toBeVisible();
  await solo.goto(`/dashboard/student/activities/response/${activityId}`);
  for (const [i, type] of SCENE_TYPES.entries()) {
    const verdict = solo.locator(`[data-scene-id="${scenes[i]!.id}"] [data-testid="verdict"]`);
    const right = STEPS[type].right;
    if (right === undefined) await expect(verdict, type).toHaveCount(0);
    else await expect(verdict, type).toHaveAttribute("data-verdict", right ? "correct" : "incorrect");
  }
  const blanks = solo.locator(`[data-scene-id="${scenes[SCENE_TYPES.indexOf("fill_blanks")]!.id}"]`);
  const number = solo.locator(`[data-scene-id="${scenes[SCENE_TYPES.indexOf("number")]!.id}"]`);
  await expect(blanks.getByTestId("blank-answers")).toContainText("100");
  expect(await baseText(number.getByTestId("number-key"))).toContain("12.5 ± 0.5 cm");
  await expectAccessible(solo);

  // the student's feedback for the blanks and the number, in the three display languages, on a phone and a desktop
  for (const lang of LANGS) {
    await solo.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
    await solo.reload();
    for (const size of [PHONE, DESKTOP]) {
      await solo.setViewportSize(size);
      for (const [name, part] of [
        ["blanks", blanks],
        ["number", number],
      ] as const) {
        await part.getByTestId("verdict").scrollIntoViewIfNeeded();
        await expect(part.getByTestId("verdict")).toBeVisible();
        await part.screenshot({ path: test.info().outputPath(`feedback-${name}-${lang}-${size.width}.png`) });
      }
      expect(await solo.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    }
  }
});
