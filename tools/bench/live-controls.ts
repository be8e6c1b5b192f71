/**
 * The live controls' rows (`--only=live-controls`): one class of 40 students follows a live
 * session over their event streams, as at the bell, with the class's projector screen open (its
 * stream, /projector/{token}: no sign-in) on a free-text scene whose answers are shown.
 * - Row A: the teacher presses "eyes on me" (pause) and lets the class go again, ROUNDS presses in
 *   all; from the teacher's request leaving (the server action as the guide screen posts it) until
 *   EVERY receiver (the 40 students and the projector) shows the change: p99 < 100 ms, none missed.
 * - Row A2: the teacher stars an answer and takes the star off again, ROUNDS presses (the action the
 *   console's star button posts); until the projector shows it, the 40 students' streams open
 *   meanwhile (a student's screen shows no stars: their state carries no answers): p99 < 100 ms.
 *   The bare SSE echo with the same streams, rounds and payload runs after each, for the record.
 * - Row B (run first: its class answers every question, the answers the projector shows and the
 *   star marks): the teacher's grid for the 40 students in Chromium (tools/bench/grid-render.ts).
 * A receiver is anything that must see a control, and a control says which kinds of receiver it
 * reaches and which event on them shows its round.
 */
import type { BenchClass, BenchData, RunningApp } from "./app";
import { teacherGridRow } from "./grid-render";
import {
  actionId,
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
import { echoFanout, type Row } from "./scenarios";
import { deliveryRow, untilEveryReceiver } from "./verdict";

const ROUNDS = 60; // 30 pauses and 30 resumes; 30 stars and 30 taken off
const LIMIT_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Something that must see the teacher's control: its kind ("student", "projector"), its stream and its cookie. */
export interface Receiver {
  kind: string;
  url: string;
  cookie: string;
}

/** A control the teacher presses once per round, whom it reaches, and how a receiver's event shows that round's change. */
export interface Control {
  name: string;
  reaches: (kind: string) => boolean;
  press: (round: number) => Promise<void>;
  shows: (kind: string, event: string, data: string, round: number) => boolean;
}

/**
 * Opens every receiver's stream, presses `control` `rounds` times (one every 150 ms after the last
 * arrival) and times, per press, every receiver it reaches and the last of them.
 */
export async function controlFanout(receivers: Receiver[], control: Control, rounds: number) {
  let round = 0;
  const reached = receivers.filter((r) => control.reaches(r.kind));
  const arrivals = reached.map(() => new Map<number, number>());
  let lastPayload = "";
  const clients: SseClient[] = receivers.map((r) => {
    const i = reached.indexOf(r);
    return openSse(r.url, r.cookie, (event, data, at) => {
      if (i < 0 || round === 0 || arrivals[i]!.has(round) || !control.shows(r.kind, event, data, round)) return;
      arrivals[i]!.set(round, at);
      lastPayload = data;
    });
  });
  const perPress: (number | undefined)[][] = [];
  const requests: number[] = [];
  try {
    await Promise.all(clients.map((c) => c.ready));
    await sleep(500); // the opening snapshots
    for (round = 1; round <= rounds; round++) {
      const t0 = performance.now();
      await control.press(round);
      requests.push(performance.now() - t0);
      const end = performance.now() + 5_000;
      while (performance.now() < end && !arrivals.every((a) => a.has(round))) await sleep(2);
      perPress.push(arrivals.map((a) => (a.has(round) ? a.get(round)! - t0 : undefined)));
      await sleep(150);
    }
  } finally {
    for (const c of clients) c.close();
  }
  const deliveries = perPress.flat().filter((x): x is number => x !== undefined);
  return {
    ...untilEveryReceiver(perPress),
    reached: reached.length,
    deliveryP99: percentile(deliveries, 99),
    request: median(requests),
    lastPayload,
  };
}

/** "Eyes on me": odd rounds pause, even rounds let the class go again; a student's and the projector's state shows `paused`. */
function pauseControl(app: RunningApp, c: BenchClass, teacherCookie: string): Control {
  const id = actionId("features/play/server/actions.ts", "setPausedAction");
  const page = `/dashboard/teacher/activities/guide/${c.activityId}`;
  return {
    name: "pause",
    reaches: (kind) => kind === "student" || kind === "projector",
    press: async (round) =>
      expectActionOk(
        await callAction(app.url, page, id, [{ activityId: c.activityId, paused: round % 2 === 1 }], teacherCookie),
        "live controls: pause",
      ),
    shows: (_kind, event, data, round) =>
      event === "state" && (JSON.parse(data) as { paused?: boolean }).paused === (round % 2 === 1),
  };
}

/** The star on one answer: odd rounds star it, even rounds take the star off; the projector's answer shows `starred`. */
function starControl(app: RunningApp, c: BenchClass, teacherCookie: string, responseId: string): Control {
  const id = actionId("features/play/server/projector-actions.ts", "starAnswerAction");
  const page = `/dashboard/teacher/activities/guide/${c.activityId}`;
  return {
    name: "star",
    reaches: (kind) => kind === "projector",
    press: async (round) =>
      expectActionOk(
        await callAction(
          app.url,
          page,
          id,
          [{ activityId: c.activityId, responseId, starred: round % 2 === 1 }],
          teacherCookie,
        ),
        "live controls: star",
      ),
    shows: (_kind, event, data, round) => {
      if (event !== "state") return false;
      const state = JSON.parse(data) as { results?: { answers: { starred: boolean }[] } | null };
      return state.results?.answers[0]?.starred === (round % 2 === 1);
    },
  };
}

/**
 * The lesson the controls run in (after row B, whose class answered every question): the
 * free-text scene with its 40 answers shown, and a projector link open. Returns the projector's
 * token and the first answer's id (as the teacher's console gets it: from its own stream).
 */
async function setUpProjector(
  app: RunningApp,
  data: BenchData,
  c: BenchClass,
  teacherCookie: string,
  act: (name: string, args: Record<string, unknown>) => Promise<void>,
) {
  const free = data.schools.find((x) => x.id === c.schoolId)!.soloScenes.findIndex((x) => x.type === "free_text");
  if (free < 0) throw new Error("live controls: the bench template has no free-text scene");
  const moved = await request(`${app.url}/api/v1/live/${c.activityId}/scene`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: app.url, Cookie: teacherCookie },
    body: JSON.stringify({ sceneId: c.sceneIds[free] }),
  });
  if (moved.status !== 200) throw new Error(`live controls: moving to the free-text scene: HTTP ${moved.status}`);
  await act("setFlagsAction", { showResults: true });
  const opened = await callAction(
    app.url,
    `/dashboard/teacher/activities/guide/${c.activityId}`,
    actionId("features/play/server/projector-actions.ts", "openProjectorAction"),
    [{ activityId: c.activityId }],
    teacherCookie,
  );
  expectActionOk(opened, "live controls: opening the projector link");
  const token = /\/projector\/([A-Za-z0-9_-]{43})/.exec(opened.body)?.[1];
  if (!token) throw new Error("live controls: no projector link in the reply");
  let responseId: string | undefined;
  const console_ = openSse(`${app.url}/api/v1/live/${c.activityId}/events`, teacherCookie, (event, raw) => {
    const texts =
      event === "state"
        ? (JSON.parse(raw) as { results?: { texts: { id: string }[] } | null }).results?.texts
        : undefined;
    responseId ??= texts?.[0]?.id;
  });
  const end = performance.now() + 10_000;
  while (!responseId && performance.now() < end) await sleep(20);
  console_.close();
  if (!responseId) throw new Error("live controls: the teacher's console never showed the answer");
  return { token, responseId };
}

/** The group: a lesson for the first class of the bench academy, row B (its class answers), then rows A and A2, then the lesson ends. */
export async function liveControlRows(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row[]> {
  const c = data.classes[0]!;
  const teacherCookie = await sessionCookie(c.teacher.id, "teacher");
  const page = `/dashboard/teacher/activities/guide/${c.activityId}`;
  const act = async (name: string, args: Record<string, unknown>) =>
    expectActionOk(
      await callAction(
        app.url,
        page,
        actionId("features/play/server/actions.ts", name),
        [{ activityId: c.activityId, ...args }],
        teacherCookie,
      ),
      `live controls: ${name}`,
    );
  // the class's session (the seed's first class: grade 1, class 1)
  await act("startSessionAction", { klass: { grade: 1, className: "1" } });
  try {
    const rowB = await teacherGridRow(app, c, teacherCookie, databaseUrl);
    const { token, responseId } = await setUpProjector(app, data, c, teacherCookie, act);
    const receivers: Receiver[] = [
      { kind: "projector", url: `${app.url}/api/v1/projector/${token}/events`, cookie: "" },
    ];
    await pool(c.students, 20, async (s) => {
      receivers.push({
        kind: "student",
        url: `${app.url}/api/v1/live/${c.activityId}/events`,
        cookie: await sessionCookie(s.id, "student"),
      });
    });
    const students = receivers.length - 1;
    const rows: Row[] = [];
    for (const control of [pauseControl(app, c, teacherCookie), starControl(app, c, teacherCookie, responseId)]) {
      const run = await controlFanout(receivers, control, ROUNDS);
      // the like-for-like baseline: the bare SSE echo, as many streams reached, the same rounds, the payload the app sent
      const echo = await echoFanout(run.reached, ROUNDS, undefined, run.lastPayload || undefined);
      const who =
        control.name === "pause"
          ? `the ${students} students of a class and its projector`
          : `the projector (the ${students} students' streams open; a student's screen shows no stars)`;
      const what =
        control.name === "pause" ? `"eyes on me" (pause, then resume)` : "a star on an answer (star, then off)";
      rows.push(
        deliveryRow(
          `live controls: ${what} reaches ${who}, ${ROUNDS} presses, each timed until its last receiver saw it`,
          LIMIT_MS,
          run.times,
          run.missed,
          `each receiver's delivery p99 ${Math.round(run.deliveryP99)} ms; the teacher's request alone median ${Math.round(run.request)} ms; bare SSE echo (${run.reached} stream${run.reached > 1 ? "s" : ""}) p99 ${Math.round(echo.p99)} ms → ${(percentile(run.times, 99) / Math.max(echo.p99, 0.1)).toFixed(1)}× the echo`,
          "presses",
        ),
      );
    }
    return [...rows, rowB];
  } finally {
    await act("endSessionAction", {}).catch((error: unknown) =>
      console.warn(`live controls: ending the lesson failed (${String(error)})`),
    );
  }
}
