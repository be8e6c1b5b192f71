import "server-only";
import DataLoader from "dataloader";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";
import { drawingPaths } from "@/features/scenes/shared/drawing-outline";
import { drawingAnswerSchema } from "@/features/scenes/shared/drawing-schema";
import type { ImageMeta } from "@/features/scenes/server/image-queries";
import { imageIdsOf } from "@/features/scenes/shared/image-refs";
import { shownName } from "@/platform/names/person-name";
import { correctIdsOf, sceneHasKey } from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { respondents, sceneResults } from "@/features/play/server/state-queries";
import { hashProjectorToken, PROJECTOR_TOKEN } from "./projector-token";
import { gameBoardOf } from "./game-queries";
import type { GameBoard, GameBoardView } from "../shared/game";

/** A valid projector link: not revoked, its session running, its activity active and in guide mode. */
export interface ProjectorLinkRef {
  linkId: string;
  sessionId: string;
  activityId: string;
  schoolId: string;
}

/** What a link must be to open anything: not revoked, its session running, its activity active and in guide mode. */
const LINK_OPENS = {
  revokedAt: null,
  session: { endedAt: null, activity: { status: "active", mode: "guide", actorType: "student" } },
} as const;

/** The link a token opens, or null (malformed, unknown, revoked, the lesson over): never says which. */
export async function projectorLinkOf(token: string): Promise<ProjectorLinkRef | null> {
  if (!PROJECTOR_TOKEN.test(token)) return null;
  const link = await db().projectorLink.findFirst({
    where: { tokenHash: hashProjectorToken(token), ...LINK_OPENS },
    select: { id: true, session: { select: { id: true, activityId: true, activity: { select: { schoolId: true } } } } },
  });
  return link
    ? {
        linkId: link.id,
        sessionId: link.session.id,
        activityId: link.session.activityId,
        schoolId: link.session.activity.schoolId,
      }
    : null;
}

/** The answers as the classroom screen shows them: counts, and texts by arrival with no id and a name only while names are on. */
export interface ProjectorResults {
  sceneId: string;
  total: number;
  counts: Record<string, Record<string, number>>;
  names: Record<string, Record<string, string[]>> | null;
  answers: { text: string; name: string | null; starred: boolean }[];
  /** A word cloud's words the class may see (the hidden ones are left out here), most first. */
  words?: { word: string; n: number }[];
  /** A drawing scene's pictures, outlined on the server, by arrival (at most MAX_DRAWINGS). */
  drawings: { strokes: number; paths: { d: string; color: string }[]; name: string | null; starred: boolean }[];
}

/** How many drawings the gallery shows (the first to arrive; "starred only" picks among all). */
export const MAX_DRAWINGS = 48;

/** The drawings of a drawing scene for the gallery: outlined here, so the page gets SVG paths only. */
async function sceneDrawings(
  activityId: string,
  sceneId: string,
  sessionId: string,
  klass: { grade: number; className: string } | null,
  opts: { names: boolean; starredOnly: boolean },
) {
  const rows = await db().response.findMany({
    where: {
      activityId,
      sceneId,
      user: respondents(klass),
      ...(opts.starredOnly ? { projectorStars: { some: { sessionId } } } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: MAX_DRAWINGS,
    select: {
      answer: true,
      user: { select: { name: true, nickname: true } },
      projectorStars: { where: { sessionId }, select: { responseId: true } },
    },
  });
  return rows.flatMap((r) => {
    const parsed = drawingAnswerSchema.safeParse(r.answer);
    if (!parsed.success) return [];
    return [
      {
        strokes: parsed.data.strokes.length,
        paths: drawingPaths(parsed.data),
        name: opts.names ? (shownName(r.user)?.base ?? null) : null,
        starred: r.projectorStars.length > 0,
      },
    ];
  });
}

/** What a projector page shows: the session's scene and what the teacher chose, or that the lesson is over. */
export type ProjectorState =
  | { status: "ended"; sessionStartedAt: number; version: number }
  | {
      status: "running";
      sessionStartedAt: number;
      version: number;
      sceneId: string | null;
      paused: boolean;
      locked: boolean;
      timer: { endsAt: number; now: number; seconds: number; locks: boolean } | null;
      showResults: boolean;
      showNames: boolean;
      starredOnly: boolean;
      results: ProjectorResults | null;
      /** The current scene's correct options once the teacher has shown the answer (「正解を見せる」); null before. */
      correct: string[] | null;
      /** A game's leaderboard or podium while the teacher shows it between questions (null: the scene). */
      game: GameBoard | null;
    };

/** Newer than any state of any session: a page that has seen it never goes back to a scene. */
export const ENDED: ProjectorState = { status: "ended", sessionStartedAt: Number.MAX_SAFE_INTEGER, version: 0 };

/** What a projector reads of its session. */
const PROJECTED_SESSION = {
  id: true,
  activityId: true,
  startedAt: true,
  version: true,
  currentSceneId: true,
  paused: true,
  lockedSceneIds: true,
  showResults: true,
  showNames: true,
  starredOnly: true,
  revealedSceneId: true,
  timerSceneId: true,
  timerEndsAt: true,
  timerSeconds: true,
  timerLocks: true,
  grade: true,
  className: true,
  game: true,
  gameBoard: true,
  gameNames: true,
  gameTeams: true,
} as const;

type ProjectedSession = Prisma.GuideSessionGetPayload<{ select: typeof PROJECTED_SESSION }>;

/**
 * The projectors' link reads of the same turn of the event loop as ONE query: when fifty teachers show the
 * leaderboard at once, the notifications arrive together, and so do the fifty projectors' reads (their boards too:
 * gameBoardOf). Nothing is kept: a read that starts later reads again.
 */
function projectedSessions(): DataLoader<string, ProjectedSession | null> {
  const g = globalThis as unknown as { manabiyaProjected?: DataLoader<string, ProjectedSession | null> };
  return (g.manabiyaProjected ??= new DataLoader<string, ProjectedSession | null>(
    async (hashes) => {
      const found = await db().projectorLink.findMany({
        where: { tokenHash: { in: [...hashes] }, ...LINK_OPENS },
        select: { tokenHash: true, session: { select: PROJECTED_SESSION } },
      });
      const byHash = new Map(found.map((f) => [f.tokenHash, f.session]));
      return hashes.map((h) => byHash.get(h) ?? null);
    },
    { cache: false, maxBatchSize: 500 },
  ));
}

/** The state a token's projector shows now (`ENDED` once the link no longer opens anything): the link and its session in one read. */
export async function projectorState(token: string): Promise<ProjectorState> {
  if (!PROJECTOR_TOKEN.test(token)) return ENDED;
  const s = await projectedSessions().load(hashProjectorToken(token));
  if (!s) return ENDED;
  const link = { activityId: s.activityId, sessionId: s.id };
  const sceneId = s.currentSceneId;
  const klass = s.grade !== null && s.className !== null ? { grade: s.grade, className: s.className } : null;
  const raw =
    s.showResults && sceneId ? await sceneResults(link.activityId, sceneId, s.showNames, klass, link.sessionId) : null;
  // a drawing scene's answers have nothing to count and no text (features/play/server/state-queries.ts): only then is its type read
  const drawn =
    raw && sceneId && raw.total > 0 && !raw.words && raw.texts.length === 0 && Object.keys(raw.counts).length === 0
      ? (await db().activityScene.findUnique({ where: { id: sceneId }, select: { type: true } }))?.type === "drawing"
      : false;
  const drawings =
    drawn && sceneId
      ? await sceneDrawings(link.activityId, sceneId, link.sessionId, klass, {
          names: s.showNames,
          starredOnly: s.starredOnly,
        })
      : [];
  const results: ProjectorResults | null = raw && {
    sceneId: raw.sceneId,
    total: raw.total,
    counts: raw.counts,
    names: s.showNames ? raw.names : null,
    answers: raw.texts
      .filter((x) => !s.starredOnly || x.starred)
      .map((x) => ({ text: x.text, name: s.showNames ? x.name : null, starred: x.starred })),
    drawings,
    // the words the teacher hides never leave the server: neither their spelling nor their key
    ...(raw?.words ? { words: raw.words.filter((w) => !w.hidden).map((w) => ({ word: w.word, n: w.n })) } : {}),
  };
  return {
    status: "running",
    sessionStartedAt: s.startedAt.getTime(),
    version: s.version,
    sceneId,
    paused: s.paused,
    locked: Boolean(sceneId && s.lockedSceneIds.includes(sceneId)),
    timer:
      s.timerSceneId && s.timerSceneId === sceneId && s.timerEndsAt
        ? { endsAt: s.timerEndsAt.getTime(), now: Date.now(), seconds: s.timerSeconds ?? 0, locks: s.timerLocks }
        : null,
    showResults: s.showResults,
    showNames: s.showNames,
    starredOnly: s.starredOnly,
    results,
    correct: sceneId && s.revealedSceneId === sceneId ? await sceneKeyOf(link.activityId, sceneId) : null,
    game: await shownBoard(s),
  };
}

/** A game session's leaderboard or podium while the teacher shows it (null: the scene). */
function shownBoard(s: {
  id: string;
  activityId: string;
  game: boolean;
  gameBoard: string | null;
  gameNames: boolean;
  gameTeams: boolean;
}) {
  return s.game && s.gameBoard
    ? gameBoardOf(s.id, s.gameBoard as GameBoardView, {
        names: s.gameNames,
        teams: s.gameTeams,
        activityId: s.activityId,
      })
    : null;
}

/** The correct options of an activity's scene (null: it has none). */
async function sceneKeyOf(activityId: string, sceneId: string): Promise<string[] | null> {
  const stored = await db().activityScene.findFirst({
    where: { id: sceneId, activityId },
    select: { type: true, content: true },
  });
  const parsed = stored ? sceneSchema.safeParse({ type: stored.type, content: stored.content }) : null;
  return parsed?.success && sceneHasKey(parsed.data) ? correctIdsOf(parsed.data) : null;
}

/** The activity's title and the session's current scene as stored, for the projector page (null once the link opens nothing). */
export async function projectorSceneOf(token: string) {
  const link = await projectorLinkOf(token);
  if (!link) return null;
  const s = await db().guideSession.findUnique({
    where: { id: link.sessionId },
    select: { currentSceneId: true, activity: { select: { title: true } } },
  });
  if (!s) return null;
  const scene = s.currentSceneId
    ? await db().activityScene.findFirst({
        where: { id: s.currentSceneId, activityId: link.activityId },
        select: { id: true, type: true, content: true },
      })
    : null;
  return { title: s.activity.title, scene };
}

/**
 * An image the link's projector may show: one placed on a scene (or an option) of the link's
 * activity, and of its school. Anything else is null, an image of another activity of the same
 * school included: the token reads exactly its lesson's pictures.
 */
export async function projectorImageOf(link: ProjectorLinkRef, id: string): Promise<ImageMeta | null> {
  const scenes = await db().activityScene.findMany({
    where: { activityId: link.activityId },
    select: { content: true },
  });
  if (!imageIdsOf(scenes.map((s) => s.content)).includes(id)) return null;
  return db().image.findFirst({
    where: { id, schoolId: link.schoolId },
    select: { id: true, contentType: true, sha256: true, byteSize: true },
  });
}
