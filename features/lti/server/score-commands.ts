import "server-only";
import { db } from "@/platform/db";
import { SCORE_SCOPE, SCORE_TYPE } from "@/features/lti/shared/claims";
import type { Standing } from "./completion-queries";
import {
  acceptedOrThrow,
  forgetTokens,
  platformToken,
  ServiceRefused,
  serviceFetch,
  ServiceUnavailable,
} from "./platform-token";

/**
 * The scores a portal receives (Assignment and Grade Services 2.0, features/lti/README.md "Scores and members"): one
 * row per launch link with a line item (lti_scores), the newest score only — a newer one (by its timestamp) replaces
 * a waiting or sent one, an older one or the same one again changes nothing — POSTed to `<lineitem>/scores` as
 * application/vnd.ims.lis.v1.score+json with the platform's token (platform-token.ts). Accepted (2xx) → `sent`;
 * refused for good (a 4xx but 401, 408, 429) → `parked` with the platform's answer; anything else → an error thrown,
 * tried again by the queue (score-queue.ts), and `failed` once the retries are spent.
 */
export interface Score {
  scoreGiven: number | null;
  scoreMaximum: number | null;
  gradingProgress: "FullyGraded" | "PendingManual";
  timestamp: Date;
}

/**
 * A standing as a score: the points of the keyed and the marked scenes (both left out when there are none);
 * PendingManual while an answer a teacher marks is not marked yet.
 */
export function scoreOf(standing: Standing, timestamp: Date): Score {
  const graded = standing.maximum > 0;
  return {
    scoreGiven: graded ? standing.given : null,
    scoreMaximum: graded ? standing.maximum : null,
    gradingProgress: standing.pending === 0 ? "FullyGraded" : "PendingManual",
    timestamp,
  };
}

/** The links of the person's launches of the activity that name a line item. */
export async function lineitemLinks(userId: string, activityId: string): Promise<string[]> {
  const rows = await db().ltiServiceLink.findMany({
    where: { userId, activityId, lineitem: { not: null } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * Keeps `score` as the link's newest unless a newer one is kept, or the same score (points and progress) waits or
 * was sent: an answer's event worked after later answers were saved finds their standing, and the later answer's
 * event finds it again. Whether it was kept (then it is waiting).
 */
export async function putScore(linkId: string, score: Score): Promise<boolean> {
  const count = await db().$executeRaw`
    insert into lti_scores (link_id, score_given, score_maximum, grading_progress, timestamp)
    values (${linkId}::uuid, ${score.scoreGiven}, ${score.scoreMaximum}, ${score.gradingProgress}, ${score.timestamp})
    on conflict (link_id) do update set score_given = excluded.score_given, score_maximum = excluded.score_maximum,
      grading_progress = excluded.grading_progress, timestamp = excluded.timestamp, state = 'waiting', attempts = 0,
      last_error = null, sent_at = null
    where lti_scores.timestamp < excluded.timestamp
      and not (lti_scores.state in ('waiting', 'sent')
        and lti_scores.score_given is not distinct from excluded.score_given
        and lti_scores.score_maximum is not distinct from excluded.score_maximum
        and lti_scores.grading_progress = excluded.grading_progress)`;
  return count > 0;
}

async function waitingScore(linkId: string) {
  return db().ltiScore.findFirst({
    where: { linkId, state: "waiting" },
    include: { link: { include: { platform: { select: { id: true, clientId: true, tokenUrl: true } } } } },
  });
}
type Waiting = NonNullable<Awaited<ReturnType<typeof waitingScore>>>;

/** `<lineitem>/scores`, the line item's query kept (AGS 2.0 §3.4). */
function scoresUrl(lineitem: string): string {
  const url = new URL(lineitem);
  url.pathname = `${url.pathname.replace(/\/$/, "")}/scores`;
  return url.toString();
}

/** The score as the platform reads it (AGS 2.0 §3.4.2). */
function scoreBody(w: Waiting) {
  return {
    userId: w.link.subject,
    ...(w.scoreGiven === null ? {} : { scoreGiven: w.scoreGiven, scoreMaximum: w.scoreMaximum }),
    activityProgress: "Completed",
    gradingProgress: w.gradingProgress,
    timestamp: w.timestamp.toISOString(),
  };
}

async function post(w: Waiting): Promise<void> {
  const token = await platformToken(w.link.platform, [SCORE_SCOPE]);
  const res = await serviceFetch(scoresUrl(w.link.lineitem!), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": SCORE_TYPE },
    body: JSON.stringify(scoreBody(w)),
  });
  if (res.status === 401) {
    // a token the platform no longer takes: asked for anew on the next try
    forgetTokens(w.link.platform.id);
    throw new ServiceUnavailable(`401 ${(await res.text().catch(() => "")).slice(0, 200)}`.trim());
  }
  await acceptedOrThrow(res);
}

/** Marks the score sent or parked unless a newer one replaced it meanwhile. */
async function settle(w: Waiting, state: "sent" | "parked", lastError: string | null) {
  await db().ltiScore.updateMany({
    where: { linkId: w.linkId, timestamp: w.timestamp, state: "waiting" },
    data: { state, lastError, attempts: { increment: 1 }, ...(state === "sent" ? { sentAt: new Date() } : {}) },
  });
}

/**
 * Sends the link's waiting score (the newest) until none waits, beginning no post after `end` (ms since the epoch):
 * whether none is left waiting. Throws when the platform cannot take it now.
 */
export async function deliverScore(linkId: string, end: number): Promise<boolean> {
  for (let w = await waitingScore(linkId); w; w = await waitingScore(linkId)) {
    if (Date.now() >= end) return false;
    try {
      await post(w);
      await settle(w, "sent", null);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (error instanceof ServiceRefused) {
        await settle(w, "parked", message);
        continue;
      }
      await db().ltiScore.updateMany({
        where: { linkId, timestamp: w.timestamp },
        data: { lastError: message, attempts: { increment: 1 } },
      });
      throw error;
    }
  }
  return true;
}

/** The retries are spent: the link's waiting score is `failed` (kept, with its last error). */
export async function failScore(linkId: string): Promise<void> {
  await db().ltiScore.updateMany({ where: { linkId, state: "waiting" }, data: { state: "failed" } });
}
