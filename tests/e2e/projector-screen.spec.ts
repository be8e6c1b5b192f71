import { createHash, randomBytes } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { devices } from "./browsers";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, scenesOf } from "./db";

/**
 * The projector read from the back row (features/play/ui/projector.css): at 1280×720 and 1920×1080, in every display
 * language, the question, its options and the shown results fit one screen (the page never scrolls, nothing is cut
 * off) with the question at least 4% of the screen's height, for every scene type and for a long question with six
 * options. A free-text scene shows no empty answer box; the scale's chart names its two ends. Each screen is also
 * saved as a picture (the test's output folder), a tablet's beside them.
 */
const device = devices();
const LANGS = ["ja", "ja-ruby", "ja-kana"] as const;
const SCREENS = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];
const TABLET = { width: 768, height: 1024 };
const SCALE_ENDS = ["まったくない", "とてもある"] as const;

/** The scenes added to the template's (info, two-step, single choice, free text): the other types and a long question. */
const EXTRA_SCENES = {
  multiple_choice: {
    prompt: "|水(みず)に|溶(と)けるものを、**すべて**|選(えら)びましょう。",
    options: [
      { id: "salt", label: "|食塩(しょくえん)" },
      { id: "sugar", label: "|砂糖(さとう)" },
      { id: "sand", label: "|砂(すな)" },
      { id: "chalk", label: "チョークの|粉(こな)" },
    ],
    min: 1,
  },
  scale: {
    prompt: "|実験(じっけん)の|結果(けっか)に|自信(じしん)はありますか。",
    minLabel: SCALE_ENDS[0],
    maxLabel: SCALE_ENDS[1],
  },
  drawing: {
    prompt: "ビーカーの|中(なか)の|様子(ようす)を|絵(え)にかきましょう。",
    instructions: "|溶(と)けた|食塩(しょくえん)がどこにあるか、|点(てん)でかきます。",
  },
  word_cloud: {
    prompt: "|食塩(しょくえん)が|水(みず)に|溶(と)けるようすを、ことばで|表(あらわ)しましょう。",
    maxWords: 2,
  },
  long: {
    prompt:
      "|先週(せんしゅう)の|実験(じっけん)で|見(み)たことや|教科書(きょうかしょ)で|読(よ)んだことを|思(おも)い|出(だ)しながら、|水(みず)100gに|食塩(しょくえん)をとかしていったときに|起(お)こることとして、|次(つぎ)の|六(むっ)つのうちいちばん|正(ただ)しいと|思(おも)うものを|一(ひと)つ|選(えら)び、そう|考(かんが)えた|理由(りゆう)を|友(とも)だちに|説明(せつめい)できるようにしましょう。",
    options: [
      { id: "a", label: "いくらでも|溶(と)けて、|水(みず)はすき|通(とお)ったままになる" },
      { id: "b", label: "ある|量(りょう)までは|溶(と)けるが、それより|多(おお)いと|底(そこ)に|残(のこ)る" },
      { id: "c", label: "|溶(と)けるたびに|水(みず)の|重(おも)さが|少(すこ)しずつ|軽(かる)くなっていく" },
      { id: "d", label: "|水(みず)の|温度(おんど)を|上(あ)げても、|溶(と)ける|量(りょう)はまったく|変(か)わらない" },
      { id: "e", label: "かき|混(ま)ぜなければ、|食塩(しょくえん)は|少(すこ)しも|溶(と)けない" },
      { id: "f", label: "|溶(と)けた|食塩(しょくえん)は|水(みず)の|上(うえ)のほうにだけ|集(あつ)まる" },
    ],
  },
};

/** Three students' answers to a scene of each type (the shown results). */
const ANSWERS: Record<string, object[]> = {
  info: [{ seen: true }],
  two_step: [
    { first: "more", second: "sure", reason: "食塩の分だけ重くなる" },
    { first: "same", second: "maybe", reason: "全部合わせた重さになるから" },
  ],
  single_choice: [{ choice: "clear" }, { choice: "cloudy" }, { choice: "clear" }],
  multiple_choice: [{ choices: ["salt", "sugar"] }, { choices: ["salt"] }, { choices: ["salt", "chalk"] }],
  free_text: [{ text: "とけて見えなくなる" }, { text: "水の重さが変わらないのが不思議だった" }, { text: "底にしずむ" }],
  scale: [{ value: 1 }, { value: 4 }, { value: 5 }],
  drawing: [
    {
      width: 1000,
      height: 750,
      strokes: [
        {
          color: "#2563eb",
          size: 16,
          points: [
            [200, 300],
            [500, 420],
            [800, 300],
          ],
        },
      ],
    },
  ],
  word_cloud: [
    { words: ["とける", "見えなくなる"] },
    { words: ["トケル", "すきとおる"] },
    { words: ["とける", "もやもや"] },
  ],
  long: [{ choice: "b" }, { choice: "b" }, { choice: "f" }],
};

type Kind = keyof typeof ANSWERS;

/** A lesson running on `kind`'s scene, its answers given, and a projector link to it (made as the teacher's button makes one). */
async function lessonOn(kind: Kind) {
  const { teacher, school, students } = await makeSchool(3);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const scenes = await scenesOf(activity.id);
  let scene = scenes.find((s) => s.type === kind);
  if (!scene) {
    const type = kind === "long" ? "single_choice" : (kind as "multiple_choice" | "scale" | "drawing" | "word_cloud");
    const content = EXTRA_SCENES[kind as keyof typeof EXTRA_SCENES];
    scene = await e2eDb().activityScene.create({
      data: { activityId: activity.id, position: scenes.length, type, content },
    });
  }
  for (const [i, answer] of ANSWERS[kind]!.entries())
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: scene.id,
      userId: students[i]!.id,
      scenePosition: scene.position,
      answer: answer as never,
      mode: "guide",
    });
  const session = await e2eDb().guideSession.create({
    data: { activityId: activity.id, startedById: teacher.id, currentSceneId: scene.id },
  });
  const token = randomBytes(32).toString("base64url");
  await e2eDb().projectorLink.create({
    data: {
      sessionId: session.id,
      tokenHash: createHash("sha256").update(token).digest("hex"),
      createdById: teacher.id,
    },
  });
  const showResults = (on: boolean) =>
    e2eDb().guideSession.update({ where: { id: session.id }, data: { showResults: on, version: { increment: 1 } } });
  return { sceneId: scene.id, link: `/projector/${token}`, showResults };
}

/** A classroom screen of `viewport` in `lang`, not signed in. */
async function screenIn(browser: Browser, lang: (typeof LANGS)[number], viewport: { width: number; height: number }) {
  const context = await device(browser, { viewport });
  await context.addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
  return context.newPage();
}

/** Everything of the scene and its results lies wholly inside the screen, none of it cut off by a box that scrolls. */
async function expectAllInView(page: Page, kind: Kind, shown: boolean) {
  const live = page.getByTestId("projector-live");
  const parts = [live.locator(".scene-prompt"), live.locator(".scene .choice"), live.locator(".scene .scale-point")];
  if (shown)
    parts.push(
      live.getByTestId("results").locator("h2"),
      live.locator(".result-row"),
      live.getByTestId("result-text"),
      live.getByTestId("projector-drawing"),
      live.getByTestId("cloud-word"),
    );
  for (const part of parts)
    for (const el of await part.all()) await expect(el, `${kind}: wholly on the screen`).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("language-switcher")).toBeInViewport({ ratio: 1 });
}

/** The screen as the back row sees it: no scrolling, a question in large type, every part on screen. */
async function expectFits(page: Page, kind: Kind, shown: boolean) {
  const size = page.viewportSize()!;
  const where = `${kind} ${shown ? "with results" : "scene"} at ${size.width}×${size.height}`;
  const page_ = await page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    width: document.documentElement.scrollWidth,
  }));
  expect(page_.height, `${where}: the page does not scroll`).toBeLessThanOrEqual(size.height + 1);
  expect(page_.width, `${where}: nothing wider than the screen`).toBeLessThanOrEqual(size.width + 1);
  const prompt = page.getByTestId("projector-live").locator(".scene-prompt");
  const px = await prompt.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(px, `${where}: the question is at least 4% of the screen's height`).toBeGreaterThanOrEqual(size.height * 0.04);
  await expectAllInView(page, kind, shown);
  if (kind === "free_text")
    await expect(page.locator("textarea:visible, input[type=text]:visible"), `${where}: no answer box`).toHaveCount(0);
  if (kind === "scale" && shown) {
    const chart = page.getByTestId("projector-results").getByTestId("results-bars");
    for (const end of SCALE_ENDS) await expect(chart.getByText(end), `${where}: the chart's end`).toBeInViewport();
  }
}

/** Opens the link on `page` and waits for its scene (and its results when shown). */
async function open(page: Page, link: string, sceneId: string, shown: boolean) {
  await page.goto(link);
  await expect(page.getByTestId("projector-live")).toHaveAttribute("data-scene-id", sceneId);
  if (shown) await expect(page.getByTestId("projector-results")).toBeVisible();
  else await expect(page.getByTestId("projector-results")).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** Resizes the window to `viewport` and waits for two frames: the stage has been measured and fitted again. */
async function resize(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

for (const kind of Object.keys(ANSWERS) as Kind[]) {
  test(`the projector fits the ${kind} scene and its results on one screen, in large type, at 1280×720 and 1920×1080 in every display language`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    const { sceneId, link, showResults } = await lessonOn(kind);
    for (const shown of [false, true]) {
      await showResults(shown);
      for (const lang of LANGS) {
        // one screen per language, opened at the first size and then resized, as a projector's window is when it
        // goes full screen: the stage fits itself again (features/play/ui/use-fit-to-screen.ts)
        const page = await screenIn(browser, lang, SCREENS[0]!);
        await open(page, link, sceneId, shown);
        for (const viewport of [...SCREENS, TABLET]) {
          await resize(page, viewport);
          const name = `${kind}-${shown ? "results" : "scene"}-${lang}-${viewport.width}x${viewport.height}.png`;
          await page.screenshot({ path: testInfo.outputPath(name) });
          if (viewport === TABLET) {
            const width = await page.evaluate(() => document.documentElement.scrollWidth);
            expect(width, `${kind} on a tablet: nothing wider than the screen`).toBeLessThanOrEqual(TABLET.width);
          } else await expectFits(page, kind, shown);
        }
        await page.context().close();
      }
    }
  });
}
