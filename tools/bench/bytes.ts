/**
 * Bytes per student, as a browser receives them: Debian's Chromium with an
 * empty cache, counted from the DevTools network events (encodedDataLength:
 * the bytes on the wire, compressed as the server sends them, headers
 * included; a request that never finishes, such as the home's school event
 * stream, by the bytes that had arrived). A student's first day: the sign-in
 * page, the QR sign-in, the home, a self-paced scene with math (KaTeX's CSS and the fonts the browser
 * actually fetches for it); then the stream of a 20-scene live lesson,
 * counted on the socket; then a repeat visit to the home.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Browser, CDPSession, Page } from "@playwright/test";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { createPrismaClient } from "@/platform/db/client";
import { HEARTBEAT_MS } from "@/features/play/server/sse";
import { ROOT } from "../../scripts/lib/prepare-db";
import type { BenchData, RunningApp } from "./app";
import { actionId, callAction, expectActionOk, request, sessionCookie } from "./http";
import type { Row } from "./verdict";
import { launchBenchBrowser } from "./browser";

const KB = 1024;
const LIMIT_TOTAL = 230 * KB;
const LIMIT_JS_ABOVE = 40 * KB;
const LIMIT_REPEAT = 20 * KB;
const LESSON_SCENES = 20;
const LESSON_MINUTES = 50;
const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;

/**
 * The framework's own first-load chunks (rootMainFiles of the build) as this visit received
 * them: the same bytes on the wire (compression, headers) as the JavaScript they are taken from.
 */
function frameworkBytes(visit: { url: string; bytes: number }[]): number {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, ".next/build-manifest.json"), "utf8")) as {
    rootMainFiles: string[];
  };
  return manifest.rootMainFiles.reduce((sum, f) => {
    const got = visit.filter((r) => new URL(r.url).pathname === `/_next/${f}`);
    if (got.length === 0) throw new Error(`bytes: the framework's chunk ${f} was never fetched`);
    return sum + got.reduce((n, r) => n + r.bytes, 0);
  }, 0);
}

/** A self-paced math activity whose information scene the student has read (the page opens on formulas), and a 20-scene guide activity. */
async function seedActivities(databaseUrl: string, schoolId: string, studentId: string) {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const { createActivityFromTemplate, createResponse } = await import("../../prisma/seed/factories");
    const math = await createActivityFromTemplate(db, { templateId: "math-linear-equations", schoolId, mode: "self" });
    const [info] = await db.activityScene.findMany({
      where: { activityId: math.id },
      orderBy: { position: "asc" },
      take: 1,
    });
    if (info)
      await createResponse(db, {
        activityId: math.id,
        sceneId: info.id,
        userId: studentId,
        answer: { seen: true } as Prisma.InputJsonValue,
        scenePosition: info.position,
      });
    const lesson = await createActivityFromTemplate(db, { templateId: "science-dissolve", schoolId, mode: "guide" });
    const base = await db.activityScene.findMany({ where: { activityId: lesson.id }, orderBy: { position: "asc" } });
    const extra = Array.from({ length: LESSON_SCENES - base.length }, (_, i) => base[i % base.length]!);
    await db.activityScene.createMany({
      data: extra.map((s, i) => ({
        activityId: lesson.id,
        position: base.length + i,
        type: s.type,
        content: s.content ?? {},
      })),
    });
    const scenes = await db.activityScene.findMany({
      where: { activityId: lesson.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    return { mathId: math.id, lessonId: lesson.id, lessonScenes: scenes.map((s) => s.id) };
  } finally {
    await db.$disconnect();
  }
}

/**
 * The student's stream of a live lesson: the teacher starts it, shows every
 * scene in turn (the next once the student has the last), and ends it. The
 * bytes are those the socket received (headers and body); the pings of a
 * 50-minute lesson (one every HEARTBEAT_MS) are added at their measured size.
 */
async function lessonStream(app: RunningApp, studentId: string, teacherId: string, lessonId: string, scenes: string[]) {
  const [studentCookie, teacherCookie] = await Promise.all([
    sessionCookie(studentId, "student"),
    sessionCookie(teacherId, "teacher"),
  ]);
  const page = `/dashboard/teacher/activities/guide/${lessonId}`;
  const call = async (name: string, args: Record<string, string>) => {
    // a server action answers 200 with its refusal in the body: only `{ ok: true }` is done
    expectActionOk(
      await callAction(
        app.url,
        page,
        actionId("features/play/server/actions.ts", name),
        [{ activityId: lessonId, ...args }],
        teacherCookie,
      ),
      name,
    );
  };
  await call("startSessionAction", {});
  let bytes = 0;
  let text = "";
  const req = http.get(`${app.url}/api/v1/live/${lessonId}/events`, {
    headers: {
      Cookie: studentCookie,
      Accept: "text/event-stream",
      "Accept-Encoding": "gzip, deflate, br, zstd",
      "Cache-Control": "no-cache",
    },
  });
  await new Promise<void>((resolve, reject) => {
    req.on("response", (res) => {
      if (res.statusCode !== 200) return reject(new Error(`lesson stream: HTTP ${res.statusCode}`));
      // the status line and headers as they came over the wire
      bytes +=
        `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length +
        res.rawHeaders.reduce((n, h) => n + Buffer.byteLength(h) + 2, 0) +
        2;
      if (res.headers["content-encoding"]) text = "(compressed)";
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (text !== "(compressed)") text += chunk.toString("utf8");
      });
      resolve();
    });
    req.on("error", reject);
  });
  const seen = (sceneId: string) => text.includes(`"sceneId":"${sceneId}"`);
  const waitFor = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
    if (!check())
      throw new Error(`lesson stream: ${what} never arrived (the stream's last 600 characters: ${text.slice(-600)})`);
  };
  await waitFor(() => seen(scenes[0]!), "the first scene");
  for (const sceneId of scenes.slice(1)) {
    // as the guide screen sends it (features/play/ui/advance-scene.ts)
    const moved = await request(`${app.url}/api/v1/live/${lessonId}/scene`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url, Cookie: teacherCookie },
      body: JSON.stringify({ sceneId }),
    });
    if (moved.status !== 200) throw new Error(`advance: HTTP ${moved.status} ${moved.body.slice(0, 300)}`);
    await waitFor(() => seen(sceneId), "a scene");
  }
  await call("endSessionAction", {});
  await waitFor(() => text.includes('"status":"ended"'), "the end");
  req.destroy();
  const ping = Buffer.byteLength(`event: ping\ndata: ${Date.now()}\n\n`);
  const pings = Math.floor((LESSON_MINUTES * 60_000) / HEARTBEAT_MS) * ping;
  return { stream: bytes, pings, total: bytes + pings };
}

/** One request as the browser saw it: the phase it was sent in, and its bytes as they arrived. */
type Seen = {
  phase: string;
  type: string;
  url: string;
  headers: number;
  data: number;
  total?: number;
  stream: boolean;
  cached: boolean;
  done: boolean;
};
/** What a visit received, request by request, and the hosts it asked. */
interface ByteMeter {
  /** The phase requests sent from now on count in. */
  phase: string;
  hosts: Set<string>;
  seen: Map<string, Seen>;
  redirects: Seen[];
}
type Received = { phase: string; type: string; url: string; bytes: number };

/** loadingFinished's count when it came; else what had arrived when the request was cut. */
const bytesOf = (r: Seen) => r.total ?? (r.cached ? 0 : r.headers + r.data);

/**
 * Counts every request by id: a response's headers and body as they arrive (dataReceived), so a
 * request that never finishes (an open event stream) or is cancelled (a navigation away)
 * still counts what it received; loadingFinished gives the exact total when it comes.
 */
async function meterBytes(cdp: CDPSession): Promise<ByteMeter> {
  await cdp.send("Network.enable");
  const meter: ByteMeter = { phase: "signin", hosts: new Set(), seen: new Map(), redirects: [] };
  const { seen } = meter;
  cdp.on("Network.requestWillBeSent", (e) => {
    meter.hosts.add(new URL(e.request.url).host);
    const prev = seen.get(e.requestId);
    // a redirect keeps the request id: the redirect response's bytes count on their own
    if (prev && e.redirectResponse)
      meter.redirects.push({
        ...prev,
        headers: e.redirectResponse.encodedDataLength,
        data: 0,
        total: e.redirectResponse.encodedDataLength,
        done: true,
      });
    seen.set(e.requestId, {
      phase: meter.phase,
      type: e.type ?? "Other",
      url: e.request.url,
      headers: 0,
      data: 0,
      stream: false,
      cached: false,
      done: false,
    });
  });
  cdp.on("Network.responseReceived", (e) => {
    const r = seen.get(e.requestId);
    if (!r) return;
    r.type = e.type;
    r.headers = Math.max(r.headers, e.response.encodedDataLength);
    r.stream = e.response.mimeType === "text/event-stream";
    r.cached ||= Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker);
  });
  // from the browser's cache: nothing came over the network
  cdp.on("Network.requestServedFromCache", (e) => {
    const r = seen.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on("Network.dataReceived", (e) => {
    const r = seen.get(e.requestId);
    if (r) r.data += e.encodedDataLength;
  });
  const end = (id: string, total?: number) => {
    const r = seen.get(id);
    if (!r || r.done) return;
    r.done = true;
    if (total !== undefined) r.total = total;
    if (process.env.BENCH_BYTES_DETAIL)
      console.log(
        `  ${r.phase}\t${bytesOf(r)}\t${r.type}\t${r.total === undefined ? "(cut) " : ""}${r.url.slice(0, 120)}`,
      );
  };
  cdp.on("Network.loadingFinished", (e) => end(e.requestId, e.encodedDataLength));
  cdp.on("Network.loadingFailed", (e) => end(e.requestId));
  return meter;
}

/** Waits until the page is quiet: nothing in flight for 500 ms but the event streams a page keeps open. */
async function settle(page: Page, { seen }: ByteMeter) {
  await page.waitForLoadState("load");
  let quietSince = Date.now();
  for (const started = Date.now(); Date.now() - started < 30_000; await new Promise((r) => setTimeout(r, 50))) {
    if ([...seen.values()].some((r) => !r.done && !r.stream)) quietSince = Date.now();
    else if (Date.now() - quietSince >= 500) return;
  }
}

/**
 * The student's first day in a fresh browser context (sign-in page, QR sign-in, home, the math scene),
 * then a repeat visit to the home: every request with the phase it was sent in, whenever its last bytes came.
 */
async function firstDayVisit(browser: Browser, app: RunningApp, code: string, mathId: string) {
  const context = await browser.newContext({ baseURL: app.url, locale: "ja-JP" });
  const page = await context.newPage();
  const meter = await meterBytes(await context.newCDPSession(page));
  await page.goto("/signin");
  await settle(page, meter);
  meter.phase = "qr";
  await page.goto(`/auth/auth-with-code?code=${code}`);
  const confirm = page.getByTestId("code-confirm").locator("button.button-primary");
  await confirm.waitFor({ timeout: 30_000 });
  await settle(page, meter);
  meter.phase = "home";
  await confirm.click();
  await page.waitForURL(/\/dashboard\/student\/home/, { timeout: 30_000 });
  await settle(page, meter);
  meter.phase = "math";
  await page.goto(`/dashboard/student/activities/solo/${mathId}`);
  await page.locator(".katex").first().waitFor({ timeout: 30_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await settle(page, meter);
  meter.phase = "repeat";
  await page.goto("/dashboard/student/home");
  await settle(page, meter);
  await context.close();
  const received: Received[] = [...meter.redirects, ...meter.seen.values()].map((r) => ({
    phase: r.phase,
    type: r.type,
    url: r.url,
    bytes: bytesOf(r),
  }));
  return { received, hosts: meter.hosts };
}

/** The stylesheets that carry KaTeX's rules (fetched again here, outside the count, to look inside). */
async function katexStylesheets(firstVisit: Received[]): Promise<Received[]> {
  const sheets = firstVisit.filter((r) => r.type === "Stylesheet" && r.bytes > 0);
  return (
    await Promise.all(sheets.map(async (r) => ((await request(r.url)).body.includes(".katex") ? [r] : [])))
  ).flat();
}

const PHASE_NAMES: Record<string, string> = {
  signin: "the sign-in page",
  qr: "the QR sign-in",
  home: "the home",
  math: "the math scene",
};

/** The first day's row and the repeat visit's, judged against the limits. */
async function bytesRows(
  app: RunningApp,
  all: Received[],
  hosts: Set<string>,
  lesson: Awaited<ReturnType<typeof lessonStream>>,
): Promise<Row[]> {
  const firstVisit = all.filter((r) => r.phase !== "repeat");
  const repeat = all.filter((r) => r.phase === "repeat").reduce((n, r) => n + r.bytes, 0);
  const sum = (pick: (r: Received) => boolean) => firstVisit.filter(pick).reduce((n, r) => n + r.bytes, 0);
  const inPhase = (p: string) => sum((r) => r.phase === p);
  const pages = sum(() => true);
  const js = sum((r) => r.type === "Script");
  const homeStream = sum((r) => r.url.endsWith("/api/v1/live/school/events"));
  const katexSheets = await katexStylesheets(firstVisit);
  const katexCss = katexSheets.reduce((n, r) => n + r.bytes, 0);
  const fonts = firstVisit.filter((r) => r.type === "Font");
  const fontBytes = fonts.reduce((n, r) => n + r.bytes, 0);
  const framework = frameworkBytes(firstVisit);
  const above = js - framework;
  const total = pages + lesson.total;
  const appHost = new URL(app.url).host;
  const foreign = [...hosts].filter((h) => h !== appHost);
  const mathFetched = fonts.some((r) => r.phase === "math");
  return [
    {
      scenario: `bytes per student: first day (sign-in page, QR sign-in, home, a self-paced scene with math, a ${LESSON_SCENES}-scene live lesson's stream)`,
      target: `≤ ${LIMIT_TOTAL / KB} KB in all, JS ≤ ${LIMIT_JS_ABOVE / KB} KB above the framework, KaTeX's CSS and fonts fetched, the home's event stream counted, no other host`,
      measured:
        `${kb(total)} in all (compressed as served): sign-in page ${kb(inPhase("signin"))}, QR sign-in ${kb(inPhase("qr"))}, the home it opens ${kb(inPhase("home"))} (its school event stream ${kb(homeStream)}), math scene ${kb(inPhase("math"))} ` +
        `(${fonts.filter((r) => r.phase === "math").length} KaTeX fonts ${kb(sum((r) => r.type === "Font" && r.phase === "math"))}; fonts on the whole visit ${kb(fontBytes)}; KaTeX's CSS in a shared stylesheet of ${kb(katexCss)} fetched with ${katexSheets.map((r) => PHASE_NAMES[r.phase] ?? r.phase).join(", ") || "no page"}), ` +
        `live lesson stream ${kb(lesson.stream)} + pings of a ${LESSON_MINUTES}-minute lesson ${kb(lesson.pings)}; JavaScript ${kb(js)}, framework's shared chunks ${kb(framework)} → ${kb(above)} above; ` +
        `requests to other hosts: ${foreign.length ? foreign.join(", ") : "none"}`,
      ratio: Math.max(total / LIMIT_TOTAL, above / LIMIT_JS_ABOVE),
      ok:
        homeStream > 0 &&
        total <= LIMIT_TOTAL &&
        above <= LIMIT_JS_ABOVE &&
        mathFetched &&
        katexSheets.length > 0 &&
        foreign.length === 0,
    },
    {
      scenario: "bytes per student: repeat visit to the home",
      target: `≤ ${LIMIT_REPEAT / KB} KB`,
      measured: kb(repeat),
      ratio: repeat / LIMIT_REPEAT,
      ok: repeat <= LIMIT_REPEAT,
    },
  ];
}

export async function bytesPerStudent(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row[]> {
  const school = data.schools[4]!;
  const student = school.students[0]!;
  const teacher = data.classes.find((c) => c.schoolId === school.id)!.teacher;
  const { mathId, lessonId, lessonScenes } = await seedActivities(databaseUrl, school.id, student.id);
  const browser = await launchBenchBrowser();
  try {
    const { received, hosts } = await firstDayVisit(browser, app, student.code, mathId);
    const lesson = await lessonStream(app, student.id, teacher.id, lessonId, lessonScenes);
    return await bytesRows(app, received, hosts, lesson);
  } finally {
    await browser.close();
  }
}
