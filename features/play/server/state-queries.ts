import "server-only";
import DataLoader from "dataloader";
import { db } from "@/platform/db";
import { shownName } from "@/platform/names/person-name";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { tallyTyped } from "@/features/scenes/shared/typed-results";
import { type LiveGrid, liveGrid } from "./grid-queries";
import { gridCounts } from "../shared/grid-state";
import {
  baseState,
  type LiveState,
  PRESENCE_WINDOW_MS,
  SESSIONS_SQL,
  type SessionRow,
  sessionOfRow,
  sessionRowLoader,
  sharedStudentReads,
  readActivity,
  sortRows,
  STAFF_SESSIONS_SQL,
  stateForClass,
  stateForStudent,
  statesOfRows,
} from "./student-state";
import { gameStandings } from "./game-queries";
import { hiddenWordsOf, wordCloudWords } from "./word-cloud-queries";

export { PRESENCE_WINDOW_MS, type LiveState } from "./student-state";

/** The class's answers to one scene, for projection: counts per option (with names only when asked), texts. */
export interface SceneResults {
  sceneId: string;
  total: number;
  /** Per key (`choice`, `value`, `first`, `second`; an ordering's `at<position>`, a matching's `pair:<left id>`) the count per chosen id. */
  counts: Record<string, Record<string, number>>;
  names: Record<string, Record<string, string[]>> | null;
  /** Free-text answers by arrival; `id` (the response) lets the teacher star one for the projector (staff only: the projector drops it). */
  texts: { id: string; text: string; name: string | null; starred: boolean }[];
  /** A two-step scene's answers counted by first then second step (the console's cross-table); empty otherwise. */
  cross: Record<string, Record<string, number>>;
  /** A word cloud's words grouped (most first), each with whether the teacher hides it (only word cloud scenes). */
  words?: { key: string; word: string; n: number; hidden: boolean }[];
}

/** The teacher's view adds live counts, the flags and the results (the console's, whether or not the projector shows them). */
export interface StaffLiveState extends LiveState {
  connected: number;
  answered: number;
  showResults: boolean;
  showNames: boolean;
  /** The projector shows only the starred answers. */
  starredOnly: boolean;
  lockedSceneIds: string[];
  results: SceneResults | null;
  /** Who is still working: the class's students and their state on the current scene (staff only). */
  grid: LiveGrid | null;
  /** Every running session of the activity (several classes may run it at once): the teacher picks the one to control. */
  sessions: RunningSession[];
}

/** One running session of the activity, as the teacher's screen lists it. */
export interface RunningSession {
  id: string;
  klass: { grade: number; className: string } | null;
  /** Who started it (null: their account is gone). */
  startedBy: string | null;
}

/**
 * The activities' mode and sessions, for every activity asked in the same
 * turn of the event loop in ONE query (features/play/server/student-state.ts): when fifty classes
 * move on at once, the notifications arrive together and their reads go as one.
 */
function sessionLoader() {
  const g = globalThis as unknown as { manabiyaLiveSessions?: DataLoader<string, SessionRow[] | null> };
  g.manabiyaLiveSessions ??= sessionRowLoader((ids) => db().$queryRawUnsafe<SessionRow[]>(SESSIONS_SQL, ids));
  return g.manabiyaLiveSessions;
}

const studentStates = sharedStudentReads(async (activityId) =>
  readActivity(statesOfRows(await sessionLoader().load(activityId)), gameStandings()),
);

/**
 * The state a student of class `studentClass` (features/play/shared/klass.ts) follows: their class's session (the
 * caller has checked access), with student `userId`'s own standing while a game's board is shown (none without one).
 */
export async function liveStateForStudent(
  activityId: string,
  studentClass: string | null,
  userId: string | null = null,
): Promise<LiveState | null> {
  const read = await studentStates(activityId);
  return userId ? stateForStudent(read, studentClass, userId) : stateForClass(read.states, studentClass);
}

/** The students whose answers a session's counts and results are made of: its class's, or every student's. */
export function respondents(klass: { grade: number; className: string } | null | undefined) {
  return klass
    ? { role: "student" as const, student: { is: { grade: klass.grade, className: klass.className } } }
    : { role: "student" as const };
}

/**
 * The session the teacher's screen shows: the one chosen (`sessionId`, when it is one of the activity's),
 * else the only running one, else (none running) the latest; null when several run and none is chosen.
 */
async function staffSession(activityId: string, sessionId: string | null) {
  // the fifty teachers' reads at the bell go as one with the students' (the batched loader); only a
  // chosen session that a later one of its class followed needs a read of its own
  let rows = (await sessionLoader().load(activityId)) ?? [];
  if (sessionId && !rows.some((r) => r.session_id === sessionId))
    rows = sortRows(await db().$queryRawUnsafe<SessionRow[]>(STAFF_SESSIONS_SQL, activityId, sessionId));
  const loaded = rows.map(sessionOfRow);
  const first = loaded[0];
  if (!first) return null;
  const running = loaded.filter((l) => l.session && !l.session.endedAt && l.activity.mode === "guide");
  const chosen = sessionId
    ? loaded.find((l) => l.session?.id === sessionId)
    : running.length <= 1
      ? (running[0] ?? first)
      : undefined;
  return { chosen: chosen ?? { activity: first.activity, session: null }, running };
}

/** The activity's running sessions as the teacher's screen lists them: which class, who started it (staff only). */
async function runningSessions(
  activityId: string,
  running: ReturnType<typeof sessionOfRow>[],
  shown: string | null,
): Promise<RunningSession[]> {
  const ids = running.map((l) => l.session!.id);
  if (ids.length === 0) return [];
  // one session, the one shown: the screen lists nothing (features/play/ui/running-sessions.tsx), so no read
  if (ids.length === 1 && ids[0] === shown) {
    const only = running[0]!.session!;
    return [{ id: only.id, klass: only.klass, startedBy: null }];
  }
  const rows = await db().guideSession.findMany({
    where: { id: { in: ids }, activityId },
    orderBy: [{ grade: "asc" }, { className: "asc" }, { startedAt: "asc" }],
    select: { id: true, grade: true, className: true, startedBy: { select: { name: true, nickname: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    klass: r.grade !== null && r.className !== null ? { grade: r.grade, className: r.className } : null,
    startedBy: r.startedBy ? (shownName(r.startedBy)?.base ?? null) : null,
  }));
}

/**
 * The teacher's state (`schoolId` authorised) of the session chosen (`sessionId`, features/play/server/state-queries.ts staffSession):
 * counts of connected and answered students, the grid, the current scene's results, and every running session of the activity.
 */
export async function liveStateForStaff(
  activityId: string,
  schoolId: string,
  sessionId: string | null = null,
): Promise<StaffLiveState | null> {
  const found = await staffSession(activityId, sessionId);
  if (!found) return null;
  const loaded = found.chosen;
  const state = baseState(loaded);
  const session = loaded.session;
  const running = state.status === "running" && session;
  const grid = running ? await liveGrid(schoolId, activityId, session.id) : null;
  const klass = grid?.klass;
  const [connected, answered, sessions] = await Promise.all([
    running
      ? db().guidePresence.count({
          where: { sessionId: session.id, seenAt: { gt: new Date(Date.now() - PRESENCE_WINDOW_MS) } },
        })
      : 0,
    !running
      ? 0
      : klass && grid
        ? gridCounts(grid.students).answered
        : state.sceneId
          ? db().response.count({ where: { activityId, sceneId: state.sceneId, user: respondents(klass) } })
          : 0,
    runningSessions(activityId, found.running, session?.id ?? null),
  ]);
  const showResults = Boolean(running && session.showResults);
  return {
    ...state,
    connected,
    answered,
    showResults,
    showNames: Boolean(session?.showNames),
    lockedSceneIds: session?.lockedSceneIds ?? [],
    starredOnly: Boolean(running && session.starredOnly),
    // the teacher's console shows the results as they arrive; 結果を見せる puts them on the projector too
    results:
      running && state.sceneId
        ? await sceneResults(activityId, state.sceneId, Boolean(session?.showNames), klass, session?.id)
        : null,
    grid,
    sessions,
  };
}

const add = (map: Record<string, Record<string, number>>, key: string, value: string) => {
  map[key] ??= {};
  map[key][value] = (map[key][value] ?? 0) + 1;
};
const addName = (map: Record<string, Record<string, string[]>> | null, key: string, value: string, name: string) => {
  if (!map) return;
  map[key] ??= {};
  (map[key][value] ??= []).push(name);
};

/** Counts per option of one scene's answers (students only; of `klass` when the session is run for one); names only when `withNames`; stars of session `sessionId`. */
export async function sceneResults(
  activityId: string,
  sceneId: string,
  withNames: boolean,
  klass?: { grade: number; className: string } | null,
  sessionId?: string,
): Promise<SceneResults> {
  // a drawing has nothing to count but its answers, which can be tens of kilobytes each: never loaded here
  const scene = await db().activityScene.findUnique({ where: { id: sceneId }, select: { type: true, content: true } });
  if (scene?.type === "drawing") {
    const total = await db().response.count({ where: { activityId, sceneId, user: respondents(klass) } });
    return { sceneId, total, counts: {}, names: withNames ? {} : null, texts: [], cross: {} };
  }
  if (scene?.type === "word_cloud") return wordCloudResults(activityId, sceneId, withNames, klass, sessionId);
  const rows = await db().response.findMany({
    where: { activityId, sceneId, user: respondents(klass) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      answer: true,
      user: { select: { name: true, nickname: true } },
      projectorStars: {
        where: { sessionId: sessionId ?? "00000000-0000-0000-0000-000000000000" },
        select: { responseId: true },
      },
    },
  });
  const counts: Record<string, Record<string, number>> = {};
  const names: Record<string, Record<string, string[]>> | null = withNames ? {} : null;
  const texts: SceneResults["texts"] = [];
  const cross: SceneResults["cross"] = {};
  const typed = scene ? sceneSchema.safeParse(scene) : null;
  for (const row of rows) {
    if (typed?.success) tallyTyped(typed.data, row.answer, (key, value) => add(counts, key, value));
    const a = row.answer as Record<string, unknown>;
    const name = shownName(row.user)?.base ?? "";
    const text = (value: string) =>
      texts.push({ id: row.id, text: value, name: withNames ? name : null, starred: row.projectorStars.length > 0 });
    const tally = (key: string, value: unknown) => {
      if (typeof value !== "string" && typeof value !== "number") return;
      add(counts, key, String(value));
      addName(names, key, String(value), name);
    };
    if ("choice" in a) tally("choice", a.choice);
    if (Array.isArray(a.choices)) for (const c of a.choices) tally("choice", c);
    if ("value" in a) tally("value", a.value);
    if ("first" in a) {
      tally("first", a.first);
      tally("second", a.second);
      if (typeof a.first === "string" && typeof a.second === "string") add(cross, a.first, a.second);
      if (typeof a.reason === "string" && a.reason.trim()) text(a.reason);
    }
    if (typeof a.text === "string" && a.text.trim()) text(a.text);
    // an ordering: the item at each position (`at0`, `at1`, …); a matching: the right item of each left (`pair:<left>`)
    if (Array.isArray(a.order)) a.order.forEach((id, i) => tally(`at${i}`, id));
    if (a.pairs && typeof a.pairs === "object")
      for (const [left, right] of Object.entries(a.pairs as Record<string, unknown>)) tally(`pair:${left}`, right);
  }
  return { sceneId, total: rows.length, counts, names, texts, cross };
}

/** A word cloud's results: the words grouped by one query, those the session hides flagged (features/play/server/word-cloud-queries.ts). */
async function wordCloudResults(
  activityId: string,
  sceneId: string,
  withNames: boolean,
  klass: { grade: number; className: string } | null | undefined,
  sessionId: string | undefined,
): Promise<SceneResults> {
  const [{ total, words }, session] = await Promise.all([
    wordCloudWords(activityId, sceneId, klass),
    sessionId ? db().guideSession.findUnique({ where: { id: sessionId }, select: { hiddenWords: true } }) : null,
  ]);
  const hidden = hiddenWordsOf(session?.hiddenWords, sceneId);
  return {
    sceneId,
    total,
    counts: {},
    names: withNames ? {} : null,
    texts: [],
    cross: {},
    words: words.map((w) => ({ ...w, hidden: hidden.includes(w.key) })),
  };
}
