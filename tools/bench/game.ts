/**
 * A game's leaderboard (`npm run bench -- --only=game`): 50 classes of 40 play a review lesson in game
 * mode, a projector screen open per class (its stream, no sign-in) and every student following theirs. Each student
 * answers the choice scene; then all fifty teachers press 「ランキングを見せる」 at once, for three questions. From
 * each press leaving (POST /api/v1/live/{activityId}/game, as the console's button posts it) to every projector stream
 * holding the class's leaderboard and every student stream holding that student's own standing (points and rank:
 * features/play/server/game-standings.ts): p99 within 300 ms, none missed.
 * Beside it in the same run, for the record: the bare SSE echo (tools/bench/echo-server.ts) with as many streams,
 * the same rounds and the projector's leaderboard as the payload.
 */
import { type BenchClass, type BenchData, type RunningApp, answerFor } from "./app";
import { postAnswer } from "./answers";
import { tidyUp } from "./projector";
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
import { echoFanout } from "./scenarios";
import type { Row } from "./verdict";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${Math.round(x)} ms`;
const LIMIT_MS = 300;
const ROUNDS = 3;
const CHOICE_SCENE = 2; // the science template's single-choice scene
const ACTIONS = "features/play/server/actions.ts";
const guidePath = (c: BenchClass) => `/dashboard/teacher/activities/guide/${c.activityId}`;

/** A stream's first arrival of a shown leaderboard in each round (the round `clock` says when it arrives). */
interface Watcher {
  classIndex: number;
  seen: Map<number, number>;
  /** the event that showed it last */
  payload: string;
  client: SseClient;
}

function watch(
  url: string,
  cookie: string,
  classIndex: number,
  clock: { round: number },
  shown: (s: unknown) => boolean,
) {
  const w: Watcher = { classIndex, seen: new Map(), payload: "", client: undefined as never };
  w.client = openSse(url, cookie, (event, raw, at) => {
    if (event === "state" && clock.round >= 0 && !w.seen.has(clock.round) && shown(JSON.parse(raw))) {
      w.seen.set(clock.round, at);
      w.payload = raw;
    }
  });
  return w;
}

/** Each class's game starts and goes to the choice scene; a projector link opens; returns the tokens. */
async function setUp(app: RunningApp, classes: BenchClass[], cookies: string[]): Promise<string[]> {
  const start = actionId(ACTIONS, "startSessionAction");
  const open = actionId("features/play/server/projector-actions.ts", "openProjectorAction");
  const tokens: string[] = [];
  await pool(classes, 10, async (c, i) => {
    const game = { teams: true, names: false };
    expectActionOk(
      await callAction(app.url, guidePath(c), start, [{ activityId: c.activityId, game }], cookies[i]!),
      "game: starting a lesson",
    );
    await moveTo(app, c, cookies[i]!, CHOICE_SCENE);
    const opened = await callAction(app.url, guidePath(c), open, [{ activityId: c.activityId }], cookies[i]!);
    expectActionOk(opened, "game: opening the projector link");
    const token = /\/projector\/([A-Za-z0-9_-]{43})/.exec(opened.body)?.[1];
    if (!token) throw new Error("game: no projector link in the reply");
    tokens[i] = token;
  });
  return tokens;
}

async function moveTo(app: RunningApp, c: BenchClass, cookie: string, scene: number) {
  const moved = await request(`${app.url}/api/v1/live/${c.activityId}/scene`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: app.url, Cookie: cookie },
    body: JSON.stringify({ sceneId: c.sceneIds[scene % c.sceneIds.length] }),
  });
  if (moved.status !== 200) throw new Error(`game: moving on: HTTP ${moved.status}`);
}

/** Every student answers the choice scene (the leaderboard has points to rank), ten seconds' worth at once. */
async function answerAll(app: RunningApp, data: BenchData): Promise<number> {
  const choiceOf = (c: BenchClass) => data.schools.find((x) => x.id === c.schoolId)!.soloScenes[CHOICE_SCENE]!;
  let refused = 0;
  const work = data.classes.flatMap((c) => c.students.map((s, n) => ({ c, s, n })));
  await pool(work, 200, async ({ c, s, n }) => {
    const body = JSON.stringify({
      activityId: c.activityId,
      sceneId: c.sceneIds[CHOICE_SCENE],
      answer: answerFor(choiceOf(c), n),
      clientRevision: 1,
      idempotencyKey: `gm-${s.id}`,
      mode: "guide",
    });
    const reply = await postAnswer(app, body, await sessionCookie(s.id, "student")).catch(() => ({
      status: 0,
      body: "",
    }));
    if (reply.status !== 200 || !reply.body.includes('"ok":true')) refused++;
  });
  return refused;
}

/**
 * All teachers show (or hide) the leaderboard at once, as the console's button posts it (POST
 * /api/v1/live/{activityId}/game, features/play/ui/advance-scene.ts); when each press left, by class.
 */
async function pressAll(app: RunningApp, classes: BenchClass[], cookies: string[], board: "ranking" | null) {
  const t0: number[] = [];
  await Promise.all(
    classes.map(async (c, i) => {
      t0[i] = performance.now();
      const reply = await request(`${app.url}/api/v1/live/${c.activityId}/game`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: app.url, Cookie: cookies[i]! },
        body: JSON.stringify({ board }),
      });
      if (reply.status !== 200 || !reply.body.includes('"ok":true'))
        throw new Error(`game: showing the leaderboard: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
    }),
  );
  return t0;
}

export async function gameLeaderboard(app: RunningApp, data: BenchData): Promise<Row> {
  const classes = data.classes;
  const teacherCookies = await Promise.all(classes.map((c) => sessionCookie(c.teacher.id, "teacher")));
  const tokens = await setUp(app, classes, teacherCookies);
  const clock = { round: -1 };
  const projectors = tokens.map((token, ci) =>
    watch(`${app.url}/api/v1/projector/${token}/events`, "", ci, clock, (s) => {
      const game = (s as { game?: { view: string; players: number } | null }).game;
      return game?.view === "ranking" && game.players > 0;
    }),
  );
  const students: Watcher[] = [];
  await pool(
    classes.flatMap((c, ci) => c.students.map((s) => ({ s, ci, c }))),
    100,
    async ({ s, ci, c }) => {
      const w = watch(
        `${app.url}/api/v1/live/${c.activityId}/events`,
        await sessionCookie(s.id, "student"),
        ci,
        clock,
        (st) => {
          const state = st as { game?: { board: string | null } | null; standing?: { rank: number } | null };
          return state.game?.board === "ranking" && (state.standing?.rank ?? 0) > 0;
        },
      );
      await w.client.ready;
      students.push(w);
    },
  );
  await Promise.all(projectors.map((p) => p.client.ready));
  const refused = await answerAll(app, data);

  const latencies: number[] = [];
  let missed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    clock.round = round;
    const t0 = await pressAll(app, classes, teacherCookies, "ranking");
    const everyone = [...projectors, ...students];
    const end = performance.now() + 5_000;
    while (performance.now() < end && !everyone.every((w) => w.seen.has(round))) await sleep(10);
    for (const w of everyone) {
      const at = w.seen.get(round);
      if (at === undefined) missed++;
      else latencies.push(Math.max(0, at - t0[w.classIndex]!));
    }
    // the next question: the board hidden, the class moves on and back to the choice scene (not measured)
    clock.round = -1;
    await pressAll(app, classes, teacherCookies, null);
    await pool(classes, 10, (c, i) => moveTo(app, c, teacherCookies[i]!, round + 3));
    await pool(classes, 10, (c, i) => moveTo(app, c, teacherCookies[i]!, CHOICE_SCENE));
  }
  for (const w of [...projectors, ...students]) w.client.close();
  await tidyUp(app, classes, teacherCookies);
  // the like-for-like baseline: the bare SSE echo, as many streams, the same rounds, the projector's leaderboard as the payload
  const receivers = projectors.length + students.length;
  const echo = await echoFanout(receivers, ROUNDS, undefined, projectors.find((p) => p.payload)?.payload);
  const p99 = percentile(latencies, 99);
  return {
    scenario: `game leaderboard: ${classes.length} classes, ${students.length} players in game mode, a projector per class; all teachers show the leaderboard at once, ${ROUNDS} questions`,
    target: `every projector holds its class's leaderboard and every student stream its student's own standing: p99 within ${LIMIT_MS} ms of the press, none missed`,
    measured: `p99 ${ms(p99)}, p50 ${ms(median(latencies))}, max ${ms(latencies.length ? Math.max(...latencies) : NaN)}; ${latencies.length} arrivals, ${missed} missed, ${refused} answers refused; bare SSE echo (${receivers} streams) p99 ${ms(echo.p99)} → ${(p99 / Math.max(echo.p99, 0.1)).toFixed(1)}× the echo`,
    ratio: p99 / LIMIT_MS,
    ok: missed === 0 && refused === 0 && p99 <= LIMIT_MS,
  };
}
