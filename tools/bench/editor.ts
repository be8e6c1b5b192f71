/**
 * The activity editor, for the teacher who writes tomorrow's lesson tonight
 * (docs/benchmarks.md "The activity editor's rows"):
 * - the JavaScript a teacher's browser downloads to open the editor and a
 *   scene's form (text tools, preview) with an empty cache (Debian's Chromium, DevTools' encodedDataLength: the bytes on
 *   the wire, compressed as the server sends them). The student pages are held
 *   to their own budget by the bytes row (tools/bench/bytes.ts): the editor,
 *   the analyser and the math tools load only for staff.
 * - the JavaScript the same browser then downloads when the teacher first
 *   chooses the visual mode (ProseMirror and the visual field, a lazy chunk
 *   kept out of the first load).
 * - automatic furigana for a 2,000-character scene, as the editor's button
 *   asks for it (POST /api/v1/furigana: the analyser and the roster's names of
 *   a 400-student school), once the dictionary is loaded (the first call of a
 *   process loads it and is not counted).
 */
import { createPrismaClient } from "@/platform/db/client";
import type { BenchData, RunningApp } from "./app";
import { request, sessionCookie } from "./http";
import type { Row } from "./verdict";
import { launchBenchBrowser } from "./browser";

const KB = 1024;
const LIMIT_EDITOR_JS = 300 * KB;
const LIMIT_VISUAL_JS = 100 * KB;
const LIMIT_FURIGANA_MS = 300;
const FURIGANA_RUNS = 9;
const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A science lesson's prose with ruby, bold and a line break, repeated to `length` characters. */
export function sceneText(length: number): string {
  const parts = [
    "今日の実験では、食塩を水に溶かして、その重さがどう変わるかを調べます。",
    "{ビーカー|びーかー}に百グラムの水を入れ、電子天秤で重さを量りましょう。",
    "**溶けた食塩はどこへ行ったのでしょうか。**\n",
    "予想を立ててから、班の友達と話し合い、理由をノートに書きなさい。",
    "中学校の理科では、物質が水に溶ける様子を粒子のモデルで説明します。",
  ];
  let text = "";
  for (let i = 0; text.length < length; i++) text += parts[i % parts.length];
  return text.slice(0, length);
}

export async function furiganaTiming(app: RunningApp, data: BenchData): Promise<Row> {
  const school = data.schools[0]!;
  const teacher = data.classes.find((c) => c.schoolId === school.id)!.teacher;
  const cookie = await sessionCookie(teacher.id, "teacher");
  const text = sceneText(2_000);
  const ask = async () => {
    const started = performance.now();
    const reply = await request(`${app.url}/api/v1/furigana`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url, Cookie: cookie },
      body: JSON.stringify({ text }),
    });
    const ms = performance.now() - started;
    if (reply.status !== 200) throw new Error(`furigana: HTTP ${reply.status} ${reply.body.slice(0, 300)}`);
    const proposals = (JSON.parse(reply.body) as { data: { proposals: unknown[] } }).data.proposals;
    if (proposals.length < 100)
      throw new Error(`furigana: only ${proposals.length} proposals for 2,000 characters of kanji prose`);
    return { ms, proposals: proposals.length };
  };
  const first = await ask();
  const runs: { ms: number; proposals: number }[] = [];
  for (let i = 0; i < FURIGANA_RUNS; i++) runs.push(await ask());
  const med = median(runs.map((r) => r.ms));
  return {
    scenario: "automatic furigana for a 2,000-character scene (the editor's button, after the dictionary is loaded)",
    target: `median < ${LIMIT_FURIGANA_MS} ms over ${FURIGANA_RUNS} requests`,
    measured: `median ${med.toFixed(0)} ms (${runs.map((r) => r.ms.toFixed(0)).join(", ")} ms), ${runs[0]!.proposals} words proposed; the first call of the process, which loads the dictionary, ${first.ms.toFixed(0)} ms`,
    ratio: med / LIMIT_FURIGANA_MS,
    ok: med < LIMIT_FURIGANA_MS,
  };
}

/** A fresh activity of the school (no answers yet, so every scene opens in the form), from the science template. */
async function freshActivity(databaseUrl: string, schoolId: string): Promise<string> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const { createActivityFromTemplate } = await import("../../prisma/seed/factories");
    return (
      await createActivityFromTemplate(db, {
        templateId: "science-dissolve",
        schoolId,
        mode: "self",
        title: "明日の理科",
      })
    ).id;
  } finally {
    await db.$disconnect();
  }
}

type Script = { url: string; bytes: number };
const sum = (scripts: Script[]) => scripts.reduce((n, s) => n + s.bytes, 0);
const largestOf = (scripts: Script[]) =>
  [...scripts]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map((s) => `${kb(s.bytes)} ${new URL(s.url).pathname.split("/").pop()}`)
    .join(", ");

/** The two editor rows: its first load, then the visual mode's first switch. */
export async function editorBytes(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row[]> {
  const cls = data.classes[0]!;
  const activityId = await freshActivity(databaseUrl, cls.schoolId);
  const cookie = await sessionCookie(cls.teacher.id, "teacher");
  const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
  const browser = await launchBenchBrowser();
  try {
    const context = await browser.newContext({ baseURL: app.url, locale: "ja-JP" });
    await context.addCookies([{ name, value, url: app.url }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const types = new Map<string, string>();
    const scripts: Script[] = [];
    const urls = new Map<string, string>();
    cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
    cdp.on("Network.responseReceived", (e) => types.set(e.requestId, e.type));
    cdp.on("Network.loadingFinished", (e) => {
      if (types.get(e.requestId) === "Script")
        scripts.push({ url: urls.get(e.requestId) ?? "", bytes: e.encodedDataLength });
    });
    const reply = await page.goto(`/dashboard/teacher/activities/edit/${activityId}`);
    if (reply?.status() !== 200) throw new Error(`editor: HTTP ${reply?.status()}`);
    // the editor is ready when the first scene's form, its text tools and preview are open
    await page.getByTestId("edit-scene").first().click({ timeout: 60_000 });
    await page.getByTestId("scene-form").first().waitFor({ timeout: 60_000 });
    await page.getByTestId("scene-preview").first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    const js = sum(scripts);
    const firstLoad = scripts.splice(0);
    // the visual mode chosen in the open form: what its first switch fetches
    await page.getByTestId("editor-mode-visual").first().check();
    await page.getByTestId("visual-field").first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    const visual = sum(scripts);
    return [
      {
        scenario: "the activity editor's first load for a teacher (empty cache)",
        target: `JavaScript ≤ ${LIMIT_EDITOR_JS / KB} KB on the wire (compressed as served)`,
        measured: `${kb(js)} in ${firstLoad.length} scripts; largest ${largestOf(firstLoad)}`,
        ratio: js / LIMIT_EDITOR_JS,
        ok: js <= LIMIT_EDITOR_JS && firstLoad.length > 0,
      },
      {
        scenario: "the activity editor's visual mode, first chosen (after the first load)",
        target: `JavaScript ≤ ${LIMIT_VISUAL_JS / KB} KB more on the wire`,
        measured: `${kb(visual)} in ${scripts.length} scripts; largest ${scripts.length > 0 ? largestOf(scripts) : "none"}`,
        ratio: visual / LIMIT_VISUAL_JS,
        ok: visual <= LIMIT_VISUAL_JS && scripts.length > 0,
      },
    ];
  } finally {
    await browser.close();
  }
}
