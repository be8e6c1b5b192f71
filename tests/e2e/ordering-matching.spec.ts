import { expect, type Locator, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";
import { editUrl, expectAccessible, expectNotification, signInAs } from "./helpers";
import { pickClass, sceneOf } from "./guide";

/**
 * 並べ替え and 線でつなぐ end to end: a teacher makes one of each in the editor (a refused matching named), a student
 * answers them alone on a phone by touch and live on a tablet by keyboard, the console shows the most common answer
 * per position and per left item, the stats page its charts and the CSV its rows.
 */
const signedIn = signedInBrowsers();
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 768, height: 1024 };

type Item = { id: string; label: string; correct?: string };
const contentOf = async (id: string) =>
  (await e2eDb().activityScene.findUniqueOrThrow({ where: { id } })).content as {
    items?: Item[];
    left?: Item[];
    right?: Item[];
  };
const answerOf = async (sceneId: string, userId: string) =>
  (await e2eDb().response.findFirst({ where: { sceneId, userId }, select: { answer: true } }))?.answer ?? null;

/** The ids of an ordering's items as the student's page shows them now. */
const shownOrder = (scene: Locator) =>
  scene.locator(".order-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-item")!));

/** Puts the shown items in `key`'s order with the 上へ buttons, by `press` (a tap, a click, or Enter on the focused button). */
async function putInOrder(scene: Locator, key: string[], press: (button: Locator) => Promise<void>) {
  for (let p = 0; p < key.length; p++) {
    let at = (await shownOrder(scene)).indexOf(key[p]!);
    while (at > p) {
      await press(scene.locator(".order-item").nth(at).locator(".order-moves button").first());
      await expect.poll(async () => (await shownOrder(scene)).indexOf(key[p]!)).toBe(at - 1);
      at--;
    }
  }
}

/** Adds a scene of `type` in the editor and returns its id (its form open). */
async function addScene(page: Page, activityId: string, type: "ordering" | "matching") {
  await page.getByTestId("add-type").selectOption(type);
  await page.getByTestId("add-scene").click();
  await expectNotification(page, "シーンを追加しました");
  await expect.poll(async () => (await e2eDb().activityScene.findMany({ where: { activityId, type } })).length).toBe(1);
  return (await e2eDb().activityScene.findFirstOrThrow({ where: { activityId, type } })).id;
}

test.describe("ordering and matching scenes", () => {
  test.setTimeout(300_000);

  test("a teacher makes a 並べ替え and a 線でつなぐ scene; a student answers them alone on a phone by touch; the stats page and the CSV count per position and per pair", async ({
    page,
    browser,
  }) => {
    const { teacher, school, students } = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
      mode: "self",
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));

    const ordering = await addScene(page, activity.id, "ordering");
    let form = page.locator(`[data-scene-id="${ordering}"][data-testid="scene-item"]`).getByTestId("scene-form");
    await expect(form).toBeVisible();
    for (const [i, label] of ["縄文時代", "古墳時代", "弥生時代"].entries())
      await form.locator(`[data-field="content.items.${i}.label"]`).fill(label);
    // written in the wrong order: the third goes up one (the key is the order the teacher writes)
    await form.getByRole("button", { name: "項目3を上へ" }).click();
    await form.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    await expect
      .poll(async () => (await contentOf(ordering)).items?.map((i) => i.label))
      .toEqual(["縄文時代", "弥生時代", "古墳時代"]);

    const matching = await addScene(page, activity.id, "matching");
    form = page.locator(`[data-scene-id="${matching}"][data-testid="scene-item"]`).getByTestId("scene-form");
    await expect(form).toBeVisible();
    for (const [i, label] of ["日本", "フランス"].entries())
      await form.locator(`[data-field="content.left.${i}.label"]`).fill(label);
    for (const [i, label] of ["パリ", "東京"].entries())
      await form.locator(`[data-field="content.right.${i}.label"]`).fill(label);
    await form.getByTestId("add-item").last().click();
    await form.locator('[data-field="content.right.2.label"]').fill("ローマ");
    // a left item without its match is refused with a message, and nothing is saved
    const before = await contentOf(matching);
    await form.locator('[data-field="content.left.0.correct"]').selectOption("");
    await form.getByTestId("save-scene").click();
    await expect(form.getByTestId("field-error")).toHaveText("つなぐ右の項目を選んでください。");
    expect((await contentOf(matching)).left?.[0]?.correct).toBe(before.left?.[0]?.correct);
    const right = (await contentOf(matching)).right ?? before.right!;
    await form.locator('[data-field="content.left.0.correct"]').selectOption({ label: "2　東京" });
    await form.locator('[data-field="content.left.1.correct"]').selectOption({ label: "1　パリ" });
    await expectAccessible(page);
    await form.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    // the ordering's "saved" may still be showing: wait for what this save stores, each left item with its right one
    await expect
      .poll(async () => {
        const { left, right } = await contentOf(matching);
        const labelOf = (id?: string) => right?.find((r) => r.id === id)?.label;
        return left?.map((l) => [l.label, labelOf(l.correct)]);
      })
      .toEqual([
        ["日本", "東京"],
        ["フランス", "パリ"],
      ]);
    const saved = await contentOf(matching);
    const rightIds = Object.fromEntries(saved.right!.map((r) => [r.label, r.id]));
    expect(right.length).toBeGreaterThan(0);

    // a student on a phone, by touch
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true });
    const kid = await phone.newPage();
    await signInAs(kid, students[0]!.email!, TEST_PASSWORD);
    await kid
      .getByTestId("my-activities")
      .locator(`[data-activity-id="${activity.id}"]`)
      .getByTestId("go-start")
      .click();
    const scene = kid.getByTestId("scene");
    for (let i = 0; i < 12 && (await scene.getAttribute("data-scene-type")) !== "ordering"; i++)
      await kid.getByTestId("next").click();
    await expect(scene).toHaveAttribute("data-scene-type", "ordering");
    const key = (await contentOf(ordering)).items!.map((i) => i.id);
    // shown shuffled (never the right order), the same after a reload
    const first = await shownOrder(scene);
    expect(first).not.toEqual(key);
    expect(await kid.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(kid);
    await putInOrder(scene, key, (b) => b.tap());
    await expect.poll(() => answerOf(ordering, students[0]!.id), { timeout: 30_000 }).toEqual({ order: key });
    await kid.getByTestId("next").click();
    await expect(scene).toHaveAttribute("data-scene-type", "matching");
    await scene.getByTestId("match-1").selectOption({ label: "B　東京" });
    // one left item matched: nothing saved yet
    await scene.getByTestId("match-2").selectOption({ label: "B　東京" });
    await expect
      .poll(() => answerOf(matching, students[0]!.id), { timeout: 30_000 })
      .toEqual({ pairs: { [saved.left![0]!.id]: rightIds["東京"], [saved.left![1]!.id]: rightIds["東京"] } });
    await expectAccessible(kid);
    await phone.close();

    // the stats page: fully right (1 of 1 for the ordering, 0 of 1 for the matching), per position and per pair
    await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
    const positions = page.locator(`[data-scene-id="${ordering}"]`).getByTestId("order-positions");
    await expect(positions).toContainText("1番目：縄文時代");
    await expect(positions).toContainText("3番目：古墳時代");
    const pairs = page.locator(`[data-scene-id="${matching}"]`).getByTestId("match-pairs");
    await expect(pairs).toContainText("日本 → 東京");
    await expect(pairs).toContainText("フランス → パリ");
    await expectAccessible(page);
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-results").click()]);
    const chunks: Buffer[] = [];
    for await (const c of await csv.createReadStream()) chunks.push(Buffer.from(c as Buffer));
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text).toMatch(/並べ替え,[^\n]*,2,弥生時代,1,100/);
    expect(text).toMatch(/線でつなぐ,[^\n]*,日本,東京,1,100/);
    expect(text).toMatch(/線でつなぐ,[^\n]*,フランス,パリ,0,0/);
  });

  test("live: a student on a tablet orders by keyboard and matches; the console shows the most common answer per position and per left item", async ({
    browser,
  }) => {
    const made = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: made.school.id,
      mode: "standby",
    });
    const scenes = await scenesOf(activity.id);
    const [ordering, matching] = [scenes[1]!.id, scenes[2]!.id];
    const items = ["ix1", "ix2", "ix3"].map((id, i) => ({ id, label: ["とかす", "ろ過する", "蒸発させる"][i]! }));
    await e2eDb().activityScene.update({
      where: { id: ordering },
      data: { type: "ordering", content: { prompt: "手順の順に並べましょう。", items } },
    });
    await e2eDb().activityScene.update({
      where: { id: matching },
      data: {
        type: "matching",
        content: {
          prompt: "道具と使い道をつなぎましょう。",
          left: [
            { id: "l1", label: "ろうと", correct: "r1" },
            { id: "l2", label: "蒸発皿", correct: "r2" },
          ],
          right: [
            { id: "r1", label: "こす" },
            { id: "r2", label: "熱する" },
          ],
        },
      },
    });
    const teacher = await signedIn(browser, made.teacher.email!, { width: 1280, height: 720 });
    await teacher.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
    await pickClass(teacher, "1:1");
    await teacher.getByTestId("start-session").click();
    await teacher.getByTestId("guide-jump").selectOption(ordering);
    await expect(teacher.getByTestId("guide-console")).toHaveAttribute("data-scene-id", ordering);

    const kid = await signedIn(browser, made.students[0]!.email!, TABLET);
    await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
    const scene = sceneOf(kid).getByTestId("scene");
    await expect(scene).toHaveAttribute("data-scene-type", "ordering", { timeout: 30_000 });
    // by keyboard: focus a 上へ button, Enter
    await putInOrder(scene, ["ix1", "ix2", "ix3"], async (b) => {
      await b.focus();
      await kid.keyboard.press("Enter");
    });
    await expect.poll(() => answerOf(ordering, made.students[0]!.id), { timeout: 30_000 }).not.toBeNull();
    const results = teacher.getByTestId("console-results");
    const rows = results.getByTestId("result-position");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toHaveAttribute("data-common", "ix1", { timeout: 30_000 });
    await expect(rows.nth(2)).toHaveAttribute("data-common", "ix3");
    await expect(rows.nth(0)).toContainText("とかす");
    await expectAccessible(teacher);

    await teacher.getByTestId("guide-jump").selectOption(matching);
    await expect(scene).toHaveAttribute("data-scene-type", "matching", { timeout: 30_000 });
    await scene.getByTestId("match-1").focus();
    await scene.getByTestId("match-1").selectOption("r1");
    await scene.getByTestId("match-2").selectOption("r1");
    const pairs = results.getByTestId("result-pair");
    await expect(pairs.nth(0)).toHaveAttribute("data-common", "r1", { timeout: 30_000 });
    await expect(pairs.nth(1)).toHaveAttribute("data-common", "r1");
    await expect(pairs.nth(1)).toContainText("蒸発皿");
    await expectAccessible(kid);
  });

  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const)
    test(`the two scenes as a student sees them (${lang}): 1280×720 and phone`, async ({ browser }) => {
      const made = await makeSchool(1);
      const activity = await createActivityFromTemplate(e2eDb(), {
        templateId: "science-dissolve",
        schoolId: made.school.id,
        mode: "self",
      });
      const scenes = await scenesOf(activity.id);
      await e2eDb().activityScene.update({
        where: { id: scenes[1]!.id },
        data: {
          type: "ordering",
          content: {
            prompt: "|実験(じっ・けん)の|手順(て・じゅん)の|順(じゅん)に|並(なら)べましょう。",
            items: ["|水(みず)に|入(い)れる", "かき|混(ま)ぜる", "ろ|過(か)する", "|蒸発(じょう・はつ)させる"].map(
              (label, i) => ({ id: `s${i}`, label }),
            ),
          },
        },
      });
      await e2eDb().activityScene.update({
        where: { id: scenes[2]!.id },
        data: {
          type: "matching",
          content: {
            prompt: "|道具(どう・ぐ)と|使(つか)い|道(みち)をつなぎましょう。",
            left: [
              { id: "l1", label: "ろうと", correct: "r1" },
              { id: "l2", label: "|蒸発皿(じょう・はつ・ざら)", correct: "r2" },
              { id: "l3", label: "ビーカー", correct: "r3" },
            ],
            right: [
              { id: "r1", label: "こす" },
              { id: "r2", label: "|熱(ねっ)する" },
              { id: "r3", label: "|液(えき)を|入(い)れる" },
            ],
          },
        },
      });
      for (const [name, viewport] of [
        ["1280", { width: 1280, height: 720 }],
        ["phone", PHONE],
      ] as const) {
        const kid = await signedIn(browser, made.students[0]!.email!, viewport, { lang });
        await kid.goto(`/dashboard/student/activities/solo/${activity.id}`);
        const scene = kid.getByTestId("scene");
        for (let i = 0; i < 4 && (await scene.getAttribute("data-scene-type")) !== "ordering"; i++)
          await kid.getByTestId("next").click();
        await expect(scene).toHaveAttribute("data-scene-type", "ordering");
        await kid.screenshot({ path: `test-results/ordering-${lang}-${name}.png`, fullPage: true });
        await kid.getByTestId("next").click();
        await expect(scene).toHaveAttribute("data-scene-type", "matching");
        await scene.getByTestId("match-1").selectOption("r1");
        await kid.screenshot({ path: `test-results/matching-${lang}-${name}.png`, fullPage: true });
        if (lang === "ja-kana") expect(await scene.innerText()).not.toMatch(/\p{Script=Han}/u);
        await kid.context().close();
      }
    });
});
