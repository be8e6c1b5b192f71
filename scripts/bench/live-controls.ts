/**
 * The live controls of issue 21 (`--only=live-controls`): one class of 40 students follows a live
 * session over their event streams, as at the bell.
 * - Row A: the teacher presses "eyes on me" (pause) and lets the class go again, ROUNDS presses in
 *   all; from the teacher's request leaving (the server action as the guide screen posts it) to each
 *   receiver's stream showing the change: p99 < 100 ms, none missed. The bare SSE echo with the same
 *   40 streams and rounds runs after it, for the record.
 * - Row B: the teacher's grid for the 40 students in Chromium (scripts/bench/grid-render.ts).
 * A receiver is anything that must see a control (a student's stream now; the projector's stream is
 * one more kind), and a control says which event on which kind of receiver shows its round.
 */
import type { BenchClass, BenchData, RunningApp } from "./app";
import { teacherGridRow } from "./grid-render";
import { actionId, callAction, expectActionOk, median, openSse, pool, sessionCookie, type SseClient } from "./http";
import { echoFanout, type Row } from "./scenarios";
import { deliveryRow } from "./verdict";

const ROUNDS = 60; // 30 pauses and 30 resumes
const LIMIT_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Something that must see the teacher's control: its kind ("student", later "projector"), its stream and its cookie. */
export interface Receiver {
  kind: string;
  url: string;
  cookie: string;
}

/** A control the teacher presses once per round, and how a receiver's event shows that round's change. */
export interface Control {
  name: string;
  press: (round: number) => Promise<void>;
  shows: (kind: string, event: string, data: string, round: number) => boolean;
}

/** Presses `control` `rounds` times (one every 150 ms after the last arrival) and times every receiver's arrival. */
export async function controlFanout(receivers: Receiver[], control: Control, rounds: number) {
  let round = 0;
  const arrivals = receivers.map(() => new Map<number, number>());
  const clients: SseClient[] = receivers.map((r, i) =>
    openSse(r.url, r.cookie, (event, data, at) => {
      if (round > 0 && !arrivals[i]!.has(round) && control.shows(r.kind, event, data, round)) arrivals[i]!.set(round, at);
    }),
  );
  const latencies: number[] = [];
  const requests: number[] = [];
  let missed = 0;
  try {
    await Promise.all(clients.map((c) => c.ready));
    await sleep(500); // the opening snapshots
    for (round = 1; round <= rounds; round++) {
      const t0 = performance.now();
      await control.press(round);
      requests.push(performance.now() - t0);
      const end = performance.now() + 5_000;
      while (performance.now() < end && !arrivals.every((a) => a.has(round))) await sleep(2);
      for (const a of arrivals) {
        const at = a.get(round);
        if (at === undefined) missed++;
        else latencies.push(at - t0);
      }
      await sleep(150);
    }
  } finally {
    for (const c of clients) c.close();
  }
  return { latencies, missed, request: median(requests) };
}

/** "Eyes on me": odd rounds pause, even rounds let the class go again; a student's state shows `paused`. */
function pauseControl(app: RunningApp, c: BenchClass, teacherCookie: string): Control {
  const id = actionId("lib/live/actions.ts", "setPausedAction");
  const page = `/dashboard/teacher/activities/guide/${c.activityId}`;
  return {
    name: "pause",
    press: async (round) => expectActionOk(await callAction(app.url, page, id, [{ activityId: c.activityId, paused: round % 2 === 1 }], teacherCookie), "live controls: pause"),
    shows: (kind, event, data, round) => kind === "student" && event === "state" && (JSON.parse(data) as { paused: boolean }).paused === (round % 2 === 1),
  };
}

/** The group: a session for the first class of the bench academy, row A, then row B, then the session ends. */
export async function liveControlRows(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row[]> {
  const c = data.classes[0]!;
  const teacherCookie = await sessionCookie(c.teacher.id, "teacher");
  const page = `/dashboard/teacher/activities/guide/${c.activityId}`;
  const act = async (name: string, args: Record<string, unknown>) =>
    expectActionOk(await callAction(app.url, page, actionId("lib/live/actions.ts", name), [{ activityId: c.activityId, ...args }], teacherCookie), `live controls: ${name}`);
  // the class's session (the seed's first class: grade 1, class 1)
  await act("startSessionAction", { klass: { grade: 1, className: "1" } });
  try {
    const receivers: Receiver[] = [];
    await pool(c.students, 20, async (s) => {
      receivers.push({ kind: "student", url: `${app.url}/api/v1/live/${c.activityId}/events`, cookie: await sessionCookie(s.id, "student") });
    });
    const pause = await controlFanout(receivers, pauseControl(app, c, teacherCookie), ROUNDS);
    const echo = await echoFanout(receivers.length, ROUNDS);
    const rowA = deliveryRow(
      `live controls: "eyes on me" (pause, then resume) reaches the ${receivers.length} students of a class, ${ROUNDS} presses`,
      LIMIT_MS,
      pause.latencies,
      pause.missed,
      `the teacher's request alone median ${Math.round(pause.request)} ms; bare SSE echo p99 ${Math.round(echo.p99)} ms`,
    );
    const rowB = await teacherGridRow(app, c, teacherCookie, databaseUrl);
    return [rowA, rowB];
  } finally {
    await act("endSessionAction", {}).catch((error: unknown) => console.warn(`live controls: ending the lesson failed (${String(error)})`));
  }
}
