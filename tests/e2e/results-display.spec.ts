import { type Browser, expect, type Locator, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { baseText } from "./helpers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { signedInBrowsers } from "./browsers";

const signedInAs = signedInBrowsers();
const signedIn = (browser: Browser, email: string, lang: "ja" | "ja-ruby" | "ja-kana") =>
  signedInAs(browser, email, undefined, { lang });

/** The text a reader sees outside typeset math and ruby readings: where raw markup would show. */
const textOutsideMath = (locator: Locator) =>
  locator.evaluate((el) => {
    const clone = el.cloneNode(true) as HTMLElement;
    clone.querySelectorAll(".katex, rt, rp").forEach((n) => n.remove());
    return clone.textContent ?? "";
  });

test("stats: option labels show their math and ruby in the chart itself (labels beside the bars), never raw LaTeX or markup", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(2);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "math-linear-equations",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "single_choice" },
    orderBy: { position: "asc" },
  });
  // one label with ruby beside the math ones
  const content = scene.content as { prompt: string; options: { id: string; label: string }[] };
  content.options[3]!.label = "|答(こた)えなし";
  await e2eDb().activityScene.update({ where: { id: scene.id }, data: { content } });
  await createResponse(e2eDb(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: students[0]!.id,
    scenePosition: scene.position,
    answer: { choice: "c" },
  });

  for (const lang of ["ja-ruby", "ja", "ja-kana"] as const) {
    const page = await signedIn(browser, teacher.email!, lang);
    await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
    const chart = page.locator(`section[aria-labelledby="scene-${scene.id}"]`).getByTestId("chart");
    await expect(chart).toBeVisible();
    const shown = await textOutsideMath(chart);
    expect(shown, `${lang}: no raw LaTeX or markup in the chart`).not.toMatch(/\\frac|`|\|答/);
    // every math label is typeset twice (beside its bar and in the table), visibly
    await expect(chart.locator(".katex:visible")).toHaveCount(6);
    if (lang === "ja-ruby") await expect(chart.locator("ruby:visible").filter({ hasText: "答" })).toHaveCount(2);
    if (lang === "ja-kana") expect(shown).toContain("こたえなし");
    else expect(await baseText(chart)).toContain("答えなし");
    // nothing a screen reader reads carries raw LaTeX either
    const labels = await chart.evaluate((el) =>
      [...el.querySelectorAll("[aria-label]")].map((n) => n.getAttribute("aria-label")).join(" "),
    );
    expect(labels).not.toContain("\\frac");
  }
});

test("stats: an information scene shows no count; students by full name with 年・組・番号; who has not answered yet, per scene", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(3);
  await e2eDb().user.update({ where: { id: students[0]!.id }, data: { nickname: "はなちゃん" } });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scenes = await scenesOf(activity.id);
  const answer = (i: number, at: number, value: object) =>
    createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: scenes[at]!.id,
      userId: students[i]!.id,
      scenePosition: at,
      answer: value as never,
    });
  await answer(0, 1, { first: "more", second: "sure", reason: "とける" });
  await answer(0, 2, { choice: "clear" });
  await answer(1, 2, { choice: "cloudy" });
  await answer(0, 4, { text: "おもしろかった" });

  const page = await signedIn(browser, teacher.email!, "ja");
  await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  const region = (name: RegExp) => page.getByRole("region", { name });

  const info = region(/今日のめあて/);
  await expect(info).toBeVisible();
  await expect(info).not.toContainText("人が回答");
  await expect(info).not.toContainText("まだ回答していない");

  // the choice scene: 2 answered; 花子3 has not
  const choice = region(/水溶液/);
  await expect(choice).toContainText("2人が回答");
  const waiting = choice.getByRole("list", { name: /まだ回答していない/ });
  await expect(waiting.getByRole("listitem")).toHaveCount(1);
  await expect(waiting).toContainText("試験 花子3");
  await expect(waiting).toContainText("1年1組3番");
  // the two-step scene: only 花子1 answered
  const twoStep = region(/溶かします/).first();
  const waiting2 = twoStep.getByRole("list", { name: /まだ回答していない/ });
  await expect(waiting2.getByRole("listitem")).toHaveCount(2);
  await expect(waiting2).not.toContainText("試験 花子1");

  // the free text: by full name, not the nickname
  const free = region(/気づいたこと/);
  await expect(free.getByText("おもしろかった")).toBeVisible();
  await expect(free).toContainText("試験 花子1");
  await expect(free).not.toContainText("はなちゃん");

  // the respondents: full name and seat
  const respondents = page.getByTestId("respondents");
  await expect(respondents).toContainText("試験 花子1");
  await expect(respondents).toContainText("1年1組1番");
  await expect(respondents).not.toContainText("はなちゃん");

  // the cross-table's reasons, by full name
  await twoStep.getByTestId("cross-table").getByRole("button", { name: "1" }).click();
  await expect(page.getByTestId("cell-reasons")).toContainText("試験 花子1");

  // one student's answers: full name and seat too
  await respondents.getByRole("link", { name: "試験 花子1" }).click();
  await expect(page.getByTestId("response-student")).toContainText("試験 花子1");
  await expect(page.getByTestId("response-student")).toContainText("1年1組1番");

  // in furigana mode the names carry their reading; in kana mode the reading only, and the seat in kana
  const kana = await signedIn(browser, teacher.email!, "ja-kana");
  await kana.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  await expect(kana.getByTestId("respondents")).toContainText("しけん はなこ1");
  await expect(kana.getByTestId("respondents")).toContainText("1ねん1くみ1ばん");
});

test("CSV downloads speak the user's language: Japanese file name and headers, UTF-8 with a BOM by default, Shift_JIS when chosen", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
    title: "|水溶液(すいようえき)の実験",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: activity.id, position: 2 } });
  await createResponse(e2eDb(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: students[0]!.id,
    scenePosition: 2,
    answer: { choice: "cloudy" },
  });
  await e2eDb().response.updateMany({
    where: { activityId: activity.id },
    data: { updatedAt: new Date("2026-11-24T00:05:00Z") },
  });

  const page = await signedIn(browser, teacher.email!, "ja");
  await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  // UTF-8 (the default): a BOM, Japanese header, labels and Tokyo times
  const [utf8] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-research").click()]);
  expect(utf8.suggestedFilename()).toBe("水溶液の実験_回答一覧.csv");
  const bytes = await streamBytes(await utf8.createReadStream());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder().decode(bytes.subarray(3));
  expect(text.split("\r\n")[0]).toContain("出席番号");
  expect(text).toContain("にごっていて、底にものがたまっている");
  expect(text).toContain("2026-11-24 09:05:00+09:00");

  // Shift_JIS, chosen on the page
  await page.getByTestId("export-encoding").selectOption("sjis");
  const [sjis] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-results").click()]);
  expect(sjis.suggestedFilename()).toBe("水溶液の実験_結果.csv");
  const raw = await streamBytes(await sjis.createReadStream());
  expect(raw[0]).not.toBe(0xef);
  const decoded = new TextDecoder("shift_jis").decode(raw);
  expect(decoded.split("\r\n")[0]).toBe("シーン,種類,問題,項目,項目2,人数,割合（%）,版,先生の採点,先生のコメント,年度");
  expect(decoded).toContain("にごっていて、底にものがたまっている");
});

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}
