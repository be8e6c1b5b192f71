/**
 * Row B of `live-controls`: the teacher's "who is still working" grid for 40 students
 * renders an update in less than a frame, measured in the browser (Debian's Chromium, 1920×1080, the
 * guide screen as the teacher opens it). The class does what it does at the bell, over the real
 * streams: all 40 open their streams at once (working) and close them at once (offline), JOINS times;
 * then on each question the teacher moves on (all working) and all 40 answer at once (answered).
 * In the page: every state event that changes the grid is timed from its arrival (the event's
 * timeStamp) to the grid's DOM committed and laid out (a MutationObserver on the grid that forces
 * layout: what the frame then paints); requestAnimationFrame's timestamps and the browser's long
 * animation frames tell the frames dropped meanwhile.
 */
import type { Browser, Page } from "@playwright/test";
import { createPrismaClient } from "@/platform/db/client";
import { answerFor, type BenchClass, type RunningApp } from "./app";
import { framesDuringUpdates, pairUpdates } from "./checks";
import { median, openSse, request, sessionCookie, type SseClient } from "./http";
import { gridRenderRow, type Row } from "./verdict";
import { launchBenchBrowser } from "./browser";

/** 2 × JOINS + 2 × the questions (4) updates: over 100, so that the p99 is not simply the slowest one */
const JOINS = 48;
const FRAME_MS = 16;

interface Measured {
  arrivals: number[];
  laidOut: number[];
  frames: number[];
  long: [number, number][];
  /** the grid's own render: its start and its duration to the DOM committed */
  renders: [number, number][];
}

/** Runs in the page before its scripts (page.addInitScript): fills `window.__gridBench`. */
function measureInPage() {
  const m = {
    arrivals: [] as number[],
    laidOut: [] as number[],
    frames: [] as number[],
    long: [] as [number, number][],
    renders: [] as [number, number][],
  };
  (window as unknown as { __gridBench: typeof m }).__gridBench = m;
  let last = "";
  const add = EventSource.prototype.addEventListener;
  // registered just before the page's own "state" listener: runs first, on the same event
  EventSource.prototype.addEventListener = function (
    this: EventSource,
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (type === "state") {
      add.call(this, "state", (e: Event) => {
        const now = performance.now();
        const grid = (
          JSON.parse((e as MessageEvent<string>).data) as {
            grid?: { students: { id: string; state: string }[] } | null;
          }
        ).grid;
        const signature = JSON.stringify(grid?.students.map((s) => [s.id, s.state]) ?? null);
        if (signature === last) return;
        last = signature;
        m.arrivals.push(e.timeStamp > 0 && e.timeStamp <= now ? e.timeStamp : now);
      });
    }
    return add.call(this, type, listener, options);
  } as typeof EventSource.prototype.addEventListener;
  new MutationObserver((records) => {
    const grid = document.querySelector('[data-testid="live-grid"]');
    if (!grid || !records.some((r) => grid.contains(r.target))) return;
    void (grid as HTMLElement).offsetHeight; // style and layout now, as the frame would
    m.laidOut.push(performance.now());
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) m.long.push([e.startTime, e.duration]);
    }).observe({ type: "long-animation-frame", buffered: true });
    // the grid's own render, start to DOM committed (features/play/ui/live-grid.tsx)
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "live-grid-render") m.renders.push([e.startTime, e.duration]);
    }).observe({ type: "measure" });
  } catch {
    // no long-animation-frame entries in this browser: only the frames' timestamps count
  }
  const tick = (t: number) => {
    m.frames.push(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Where an update's time went (medians): waiting for React to start the grid's render, the grid's render, the rest (the page's other parts, layout). */
function split(m: Measured, windows: [number, number][]): string {
  const parts = windows.flatMap(([a, d]) => {
    const r = m.renders.find(([start]) => start >= a && start <= d);
    return r ? [[r[0] - a, r[1], d - r[0] - r[1]]] : [];
  });
  const f = (i: number) => median(parts.map((p) => p[i]!)).toFixed(1);
  return `median split: ${f(0)} ms until the grid's render starts, ${f(1)} ms the grid's render (React, to commit), ${f(2)} ms the rest (other parts, layout)`;
}

type GridScene = { id: string; type: string; content: unknown };

/** The questions of the class's guide activity (every scene but information). */
async function questionsOf(c: BenchClass, databaseUrl: string): Promise<GridScene[]> {
  const db = createPrismaClient(databaseUrl, 1);
  const scenes = await db.activityScene
    .findMany({
      where: { activityId: c.activityId },
      orderBy: { position: "asc" },
      select: { id: true, type: true, content: true },
    })
    .finally(() => db.$disconnect());
  return scenes.filter((s) => s.type !== "info");
}

/** The class's live streams: all opened at once (`join`, once all are ready) and all closed at once (`leave`). */
function classStreams(app: RunningApp, c: BenchClass, cookies: string[]) {
  let streams: SseClient[] = [];
  const join = async () => {
    streams = cookies.map((cookie) =>
      openSse(`${app.url}/api/v1/live/${c.activityId}/events`, cookie, () => undefined),
    );
    await Promise.all(streams.map((s) => s.ready));
  };
  const leave = () => streams.splice(0).forEach((s) => s.close());
  return { join, leave };
}

/** The guide screen as the teacher opens it (1920×1080), measured from before its scripts run. */
async function openGuideScreen(browser: Browser, app: RunningApp, c: BenchClass, teacherCookie: string) {
  const [name, value] = [
    teacherCookie.slice(0, teacherCookie.indexOf("=")),
    teacherCookie.slice(teacherCookie.indexOf("=") + 1),
  ];
  const context = await browser.newContext({
    baseURL: app.url,
    locale: "ja-JP",
    viewport: { width: 1920, height: 1080 },
  });
  await context.addCookies([{ name, value, url: app.url }]);
  const page = await context.newPage();
  // as a string: tsx names inner functions with its own helper (`__name`), which the page lacks
  await page.addInitScript({ content: `var __name = (f) => f; (${measureInPage.toString()})();` });
  const reply = await page.goto(`/dashboard/teacher/activities/guide/${c.activityId}`);
  if (reply?.status() !== 200) throw new Error(`grid: HTTP ${reply?.status()}`);
  return page;
}

/** Until the grid's counts show `n` for `attribute` (data-total, data-working, data-answered). */
const gridCounts = (page: Page, attribute: string, n: number) =>
  page.waitForFunction(
    ([a, v]) => document.querySelector<HTMLElement>('[data-testid="grid-counts"]')?.getAttribute(a!) === v,
    [attribute, String(n)] as const,
    { polling: 50, timeout: 30_000 },
  );

/** The class joins (all working) and leaves (all offline) JOINS times; the grid updates it made. */
async function joinsAndLeaves(page: Page, c: BenchClass, streams: ReturnType<typeof classStreams>): Promise<number> {
  let steps = 0;
  for (let i = 0; i < JOINS; i++) {
    await streams.join();
    await gridCounts(page, "data-working", c.students.length);
    streams.leave();
    await gridCounts(page, "data-working", 0);
    steps += 2;
  }
  return steps;
}

/** Every student of the class answers `scene` at once, as the player sends it. */
async function answerAllAtOnce(app: RunningApp, c: BenchClass, scene: GridScene, n: number, cookies: string[]) {
  const saves = await Promise.all(
    c.students.map((s, k) =>
      request(`${app.url}/api/v1/answers`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: app.url, Cookie: cookies[k]! },
        body: JSON.stringify({
          activityId: c.activityId,
          sceneId: scene.id,
          answer: answerFor(scene, k + n),
          clientRevision: 1,
          idempotencyKey: crypto.randomUUID().replaceAll("-", ""),
          mode: "guide",
          respondentId: s.id,
        }),
      }),
    ),
  );
  const refused = saves.find((r) => r.status !== 200);
  if (refused) throw new Error(`grid: an answer refused: HTTP ${refused.status} ${refused.body.slice(0, 200)}`);
}

/** On each question the teacher moves on (all working) and all answer at once (answered); the grid updates it made. */
async function questionRounds(
  app: RunningApp,
  page: Page,
  c: BenchClass,
  questions: GridScene[],
  cookies: string[],
  teacherCookie: string,
): Promise<number> {
  let steps = 0;
  for (const [n, scene] of questions.entries()) {
    const moved = await request(`${app.url}/api/v1/live/${c.activityId}/scene`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url, Cookie: teacherCookie },
      body: JSON.stringify({ sceneId: scene.id }),
    });
    if (moved.status !== 200) throw new Error(`grid: moving on refused: HTTP ${moved.status}`);
    await gridCounts(page, "data-working", c.students.length);
    await answerAllAtOnce(app, c, scene, n, cookies);
    await gridCounts(page, "data-answered", c.students.length);
    steps += 2;
  }
  return steps;
}

export async function teacherGridRow(
  app: RunningApp,
  c: BenchClass,
  teacherCookie: string,
  databaseUrl: string,
): Promise<Row> {
  const questions = await questionsOf(c, databaseUrl);
  const cookies = await Promise.all(c.students.map((s) => sessionCookie(s.id, "student")));
  const browser = await launchBenchBrowser();
  const streams = classStreams(app, c, cookies);
  try {
    const page = await openGuideScreen(browser, app, c, teacherCookie);
    await gridCounts(page, "data-total", c.students.length);
    await page.waitForTimeout(1_000);
    await page.evaluate(() =>
      Object.assign((window as unknown as { __gridBench: Measured }).__gridBench, {
        arrivals: [],
        laidOut: [],
        long: [],
        renders: [],
      }),
    );
    let steps = await joinsAndLeaves(page, c, streams);
    await streams.join();
    steps += await questionRounds(app, page, c, questions, cookies, teacherCookie);
    streams.leave();
    await page.waitForTimeout(500);
    const m = await page.evaluate(() => (window as unknown as { __gridBench: Measured }).__gridBench);
    const { times, windows, unrendered } = pairUpdates(m.arrivals, m.laidOut);
    const frames = framesDuringUpdates(windows, m.frames, m.long);
    return gridRenderRow(
      `live controls: the teacher's grid for ${c.students.length} students renders each update in Chromium (all join, all leave, ×${JOINS}; then on ${questions.length} questions: moving on, all answer)`,
      FRAME_MS,
      { times, unrendered, minUpdates: steps, frames },
      split(m, windows),
    );
  } finally {
    streams.leave();
    await browser.close();
  }
}
