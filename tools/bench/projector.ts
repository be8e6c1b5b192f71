/**
 * The projector's live chart (docs/benchmarks.md "The projector's live chart"): 50 classes run a
 * lesson on a choice scene with the results shown and a projector screen open (its stream, no
 * sign-in); their 2,000 students answer within 10 s. Every projector must show each answer in its
 * chart within 1 s.
 */
import { type BenchClass, type BenchData, type RunningApp, answerFor } from "./app";
import { postAnswer } from "./answers";
import {
  actionId,
  actionResult,
  callAction,
  expectActionOk,
  median,
  openSse,
  percentile,
  pool,
  request,
  sessionCookie,
  type SseClient,
} from "./http";
import type { Row } from "./verdict";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${Math.round(x)} ms`;
const WINDOW_MS = 10_000;
const LIMIT_MS = 1_000;
const CHOICE_SCENE = 2; // the science template's single-choice scene

interface Screen {
  /** when each state arrived, with the chart's total */
  updates: { at: number; total: number }[];
  client: SseClient;
}

/** Starts each class's lesson on the choice scene with results shown and opens a projector link; returns the tokens. */
async function setUp(app: RunningApp, classes: BenchClass[], cookies: string[]): Promise<string[]> {
  const start = actionId("features/play/server/actions.ts", "startSessionAction");
  const flags = actionId("features/play/server/actions.ts", "setFlagsAction");
  const open = actionId("features/play/server/projector-actions.ts", "openProjectorAction");
  const tokens: string[] = [];
  await pool(classes, 10, async (c, i) => {
    const page = `/dashboard/teacher/activities/guide/${c.activityId}`;
    expectActionOk(
      await callAction(app.url, page, start, [{ activityId: c.activityId }], cookies[i]!),
      "projector: starting a lesson",
    );
    const moved = await request(`${app.url}/api/v1/live/${c.activityId}/scene`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url, Cookie: cookies[i]! },
      body: JSON.stringify({ sceneId: c.sceneIds[CHOICE_SCENE] }),
    });
    if (moved.status !== 200) throw new Error(`projector: moving to the choice scene: HTTP ${moved.status}`);
    expectActionOk(
      await callAction(app.url, page, flags, [{ activityId: c.activityId, showResults: true }], cookies[i]!),
      "projector: showing results",
    );
    const opened = await callAction(app.url, page, open, [{ activityId: c.activityId }], cookies[i]!);
    expectActionOk(opened, "projector: opening the link");
    // the action's data (`{ path: "/projector/<token>" }`) in the reply's flight rows
    const token = /\/projector\/([A-Za-z0-9_-]{43})/.exec(opened.body)?.[1];
    if (!token) throw new Error("projector: no link in the reply");
    tokens[i] = token;
  });
  return tokens;
}

export async function projectorChart(app: RunningApp, data: BenchData): Promise<Row> {
  const classes = data.classes;
  const teacherCookies = await Promise.all(classes.map((c) => sessionCookie(c.teacher.id, "teacher")));
  const tokens = await setUp(app, classes, teacherCookies);
  const screens: Screen[] = [];
  for (const token of tokens) {
    const screen: Screen = { updates: [], client: undefined as never };
    screen.client = openSse(`${app.url}/api/v1/projector/${token}/events`, "", (event, raw, at) => {
      if (event !== "state") return;
      const state = JSON.parse(raw) as { status: string; results: { total: number } | null };
      if (state.status === "running" && state.results) screen.updates.push({ at, total: state.results.total });
    });
    await screen.client.ready;
    screens.push(screen);
  }

  // every student answers once, at a random moment of the 10 s
  // the lesson's copy of the template has the same options as the school's solo copy
  const choiceOf = (c: BenchClass) => data.schools.find((x) => x.id === c.schoolId)!.soloScenes[CHOICE_SCENE]!;
  const work = classes.flatMap((c, ci) => c.students.map((s, n) => ({ s, ci, n, at: Math.random() * WINDOW_MS })));
  const cookies = new Map(
    await Promise.all(work.map(async (w) => [w.s.id, await sessionCookie(w.s.id, "student")] as const)),
  );
  const acked: { ci: number; at: number }[] = [];
  let refused = 0;
  const t0 = performance.now();
  await Promise.all(
    work.map(async (w) => {
      await sleep(w.at);
      const c = classes[w.ci]!;
      const sceneId = c.sceneIds[CHOICE_SCENE]!;
      const body = JSON.stringify({
        activityId: c.activityId,
        sceneId,
        answer: answerFor(choiceOf(c), w.n),
        clientRevision: 1,
        idempotencyKey: `pj-${w.s.id}`,
        mode: "guide",
      });
      const reply = await postAnswer(app, body, cookies.get(w.s.id)!).catch(() => ({ status: 0, body: "" }));
      if (reply.status === 200 && reply.body.includes('"ok":true')) acked.push({ ci: w.ci, at: performance.now() });
      else refused++;
    }),
  );
  const sentWithin = performance.now() - t0;
  // until every screen shows its class's answers (a late one is measured, not dropped), at most 10 s
  const perClass = classes.map((_c, ci) => acked.filter((x) => x.ci === ci).length);
  const end = performance.now() + 10_000;
  while (performance.now() < end && !screens.every((s, ci) => s.updates.some((u) => u.total >= perClass[ci]!)))
    await sleep(20);

  // an answer acknowledged at `a` is on a screen once it shows as many answers as its class had acknowledged by `a`
  const latencies: number[] = [];
  let missed = 0;
  for (const [ci, screen] of screens.entries()) {
    const mine = acked.filter((x) => x.ci === ci).sort((x, y) => x.at - y.at);
    for (const [k, answer] of mine.entries()) {
      const shown = screen.updates.find((u) => u.total >= k + 1);
      if (!shown) missed++;
      else latencies.push(Math.max(0, shown.at - answer.at));
    }
  }
  const updates = screens.reduce((n, s) => n + s.updates.length, 0);
  for (const s of screens) s.client.close();
  await tidyUp(app, classes, teacherCookies);
  const max = latencies.length ? Math.max(...latencies) : NaN;
  const p99 = percentile(latencies, 99);
  const ok = missed === 0 && refused === 0 && max <= LIMIT_MS;
  return {
    scenario: `projector chart: ${classes.length} classes, ${work.length} students answer within 10 s, a projector stream per class`,
    target: `every answer in its class's projector chart within ${LIMIT_MS} ms of its acknowledgement (max), none missed or refused`,
    measured: `max ${ms(max)}, p99 ${ms(p99)}, p50 ${ms(median(latencies))}; ${latencies.length} answers shown, ${missed} missed, ${refused} refused; sent within ${ms(sentWithin)}; ${updates} chart updates in all (${(updates / classes.length).toFixed(0)} per projector for ${(work.length / classes.length).toFixed(0)} answers)`,
    ratio: max / LIMIT_MS,
    ok,
  };
}

/** Ends each class's lesson, ten at a time (not measured; a failure is reported). */
export async function tidyUp(app: RunningApp, classes: BenchClass[], cookies: string[]) {
  const end = actionId("features/play/server/actions.ts", "endSessionAction");
  await pool(classes, 10, async (c, i) => {
    const reply = await callAction(
      app.url,
      `/dashboard/teacher/activities/guide/${c.activityId}`,
      end,
      [{ activityId: c.activityId }],
      cookies[i]!,
    ).catch((error: unknown) => ({ status: 0, body: String(error) }));
    if (reply.status !== 200 || !actionResult(reply)?.ok)
      console.warn(`ending a lesson failed (HTTP ${reply.status} ${reply.body.slice(0, 200)})`);
  });
}
