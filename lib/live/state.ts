import "server-only";
import DataLoader from "dataloader";
import { db } from "@/lib/db";
import type { ActivityMode } from "@/lib/activities/schema";
import { shownName } from "@/lib/users/person-name";
import { topicGeneration } from "./bus";

/** A student counts as connected while their stream or poll refreshed presence in the last 35 s. */
export const PRESENCE_WINDOW_MS = 35_000;

/** What every follower of a live session sees. `version` orders states of one session: a client never goes back. */
export interface LiveState {
  activityId: string;
  mode: ActivityMode;
  sessionId: string | null;
  /** When the session started (ms): with `version`, orders every state of an activity. */
  sessionStartedAt: number;
  version: number;
  status: "waiting" | "running" | "ended";
  sceneId: string | null;
  locked: boolean;
}

/** The class's answers to one scene, for projection: counts per option (with names only when asked), texts. */
export interface SceneResults {
  sceneId: string;
  total: number;
  counts: Record<string, Record<string, number>>;
  names: Record<string, Record<string, string[]>> | null;
  texts: { text: string; name: string | null }[];
}

/** The teacher's view adds live counts, the flags and, when shown, the results. */
export interface StaffLiveState extends LiveState {
  connected: number;
  answered: number;
  showResults: boolean;
  showNames: boolean;
  lockedSceneIds: string[];
  results: SceneResults | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface SessionRow {
  id: string;
  mode: ActivityMode;
  session_id: string | null;
  version: number | null;
  started_at: Date | null;
  current_scene_id: string | null;
  locked_scene_ids: string[] | null;
  show_results: boolean | null;
  show_names: boolean | null;
  ended_at: Date | null;
}

/**
 * The activities' mode and latest session, for every activity asked in the same
 * turn of the event loop in ONE query: when fifty classes move on at once, the
 * notifications arrive together and their reads go as one (an instance reads each
 * activity once per notification, however many students follow it: see liveStateForStudent).
 */
function sessionLoader() {
  const g = globalThis as unknown as { manabiyaLiveSessions?: DataLoader<string, SessionRow | null> };
  g.manabiyaLiveSessions ??= new DataLoader<string, SessionRow | null>(
    async (asked) => {
      const ids = asked.filter((id) => UUID.test(id));
      const rows = await db().$queryRaw<SessionRow[]>`
        select a.id::text, a.mode::text as mode, gs.id::text as session_id, gs.version, gs.started_at, gs.current_scene_id::text,
               gs.locked_scene_ids::text[], gs.show_results, gs.show_names, gs.ended_at
        from activities a
        left join lateral (select * from guide_sessions s where s.activity_id = a.id order by s.started_at desc limit 1) gs on true
        where a.id = any(${ids}::uuid[])`;
      const byId = new Map(rows.map((r) => [r.id, r]));
      return asked.map((id) => byId.get(id) ?? null);
    },
    { cache: false, maxBatchSize: 500 },
  );
  return g.manabiyaLiveSessions;
}

async function loadSession(activityId: string) {
  const row = await sessionLoader().load(activityId);
  if (!row) return null;
  const session = row.session_id
    ? {
        id: row.session_id, version: row.version ?? 0, startedAt: row.started_at!, currentSceneId: row.current_scene_id,
        lockedSceneIds: row.locked_scene_ids ?? [], showResults: Boolean(row.show_results), showNames: Boolean(row.show_names), endedAt: row.ended_at,
      }
    : null;
  return { activity: { id: row.id, mode: row.mode }, session };
}

function baseState(loaded: NonNullable<Awaited<ReturnType<typeof loadSession>>>): LiveState {
  const { activity, session } = loaded;
  const running = session && !session.endedAt && activity.mode === "guide";
  return {
    activityId: activity.id,
    mode: activity.mode,
    sessionId: session?.id ?? null,
    sessionStartedAt: session?.startedAt.getTime() ?? 0,
    version: session?.version ?? 0,
    status: running ? "running" : session?.endedAt ? "ended" : "waiting",
    sceneId: running ? session.currentSceneId : null,
    locked: Boolean(running && session.currentSceneId && session.lockedSceneIds.includes(session.currentSceneId)),
  };
}

/**
 * Reads of the same activity's student state that start while one is in
 * flight share it, as long as no notification for the activity arrived since
 * it started (then it may predate the change, and a new read starts). So a
 * teacher's advance costs one query per instance, not one per student.
 */
const inflight = new Map<string, { generation: number; promise: Promise<LiveState | null> }>();

/** The state a student follows (the caller has checked access). */
export function liveStateForStudent(activityId: string): Promise<LiveState | null> {
  const generation = topicGeneration(`activity:${activityId}`);
  const current = inflight.get(activityId);
  if (current && current.generation === generation) return current.promise;
  const promise = loadSession(activityId).then((loaded) => (loaded ? baseState(loaded) : null));
  const entry = { generation, promise };
  inflight.set(activityId, entry);
  const done = () => {
    if (inflight.get(activityId) === entry) inflight.delete(activityId);
  };
  promise.then(done, done);
  return promise;
}

/** The teacher's state: counts of connected and answered students, and the results when shown. */
export async function liveStateForStaff(activityId: string): Promise<StaffLiveState | null> {
  const loaded = await loadSession(activityId);
  if (!loaded) return null;
  const state = baseState(loaded);
  const session = loaded.session;
  const running = state.status === "running" && session;
  const [connected, answered] = running
    ? await Promise.all([
        db().guidePresence.count({ where: { sessionId: session.id, seenAt: { gt: new Date(Date.now() - PRESENCE_WINDOW_MS) } } }),
        state.sceneId ? db().response.count({ where: { activityId, sceneId: state.sceneId, user: { role: "student" } } }) : 0,
      ])
    : [0, 0];
  const showResults = Boolean(running && session.showResults);
  return {
    ...state,
    connected,
    answered,
    showResults,
    showNames: Boolean(session?.showNames),
    lockedSceneIds: session?.lockedSceneIds ?? [],
    results: showResults && state.sceneId ? await sceneResults(activityId, state.sceneId, Boolean(session?.showNames)) : null,
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

/** Counts per option of one scene's answers (students only); names only when `withNames`. */
export async function sceneResults(activityId: string, sceneId: string, withNames: boolean): Promise<SceneResults> {
  const rows = await db().response.findMany({
    where: { activityId, sceneId, user: { role: "student" } },
    orderBy: { updatedAt: "asc" },
    select: { answer: true, user: { select: { name: true, nickname: true } } },
  });
  const counts: Record<string, Record<string, number>> = {};
  const names: Record<string, Record<string, string[]>> | null = withNames ? {} : null;
  const texts: { text: string; name: string | null }[] = [];
  for (const row of rows) {
    const a = row.answer as Record<string, unknown>;
    const name = shownName(row.user)?.base ?? "";
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
      if (typeof a.reason === "string" && a.reason.trim()) texts.push({ text: a.reason, name: withNames ? name : null });
    }
    if (typeof a.text === "string" && a.text.trim()) texts.push({ text: a.text, name: withNames ? name : null });
  }
  return { sceneId, total: rows.length, counts, names, texts };
}
