import { expect, type Page } from "@playwright/test";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";

/** One save the server acknowledged: a 2xx reply with `ok: true` to a POST /api/v1/answers the page sent. */
export interface Ack {
  sceneId: string;
  answer: unknown;
  clientRevision: number;
  key: string;
}

/**
 * Records, from now on, every answer the server acknowledged to `page` (what
 * the client counts as saved). A request the server never answered (killed,
 * database down) or answered with an error is not an acknowledgement.
 */
export function recordAcks(page: Page): { acks: Ack[]; pending: () => number } {
  const acks: Ack[] = [];
  let pending = 0;
  page.on("response", (res) => {
    if (res.request().method() !== "POST" || new URL(res.url()).pathname !== "/api/v1/answers" || !res.ok()) return;
    pending++;
    void res
      .json()
      .then((body: { ok?: boolean }) => {
        const sent = res.request().postDataJSON() as {
          sceneId: string;
          answer: unknown;
          clientRevision: number;
          idempotencyKey: string;
        };
        if (body?.ok)
          acks.push({
            sceneId: sent.sceneId,
            answer: sent.answer,
            clientRevision: sent.clientRevision,
            key: sent.idempotencyKey,
          });
      })
      .catch(() => undefined)
      .finally(() => pending--);
  });
  return { acks, pending: () => pending };
}

/**
 * "Exactly once", against what the server acknowledged:
 * - the student's rows of the activity hold each acknowledged scene exactly
 *   once (none missing, none doubled) and no scene that was never acknowledged;
 * - each row holds the answer of the newest acknowledged save of its scene
 *   (highest client revision), with that revision;
 * - nothing typed is lost: for every scene the student answered, the last
 *   answer they gave (`typed`) was acknowledged and is the stored one.
 */
export async function expectExactlyOnce(
  db: PrismaClient,
  where: { activityId: string; userId: string },
  recorded: ReturnType<typeof recordAcks>,
  typed: Map<string, unknown>,
) {
  const newestAcks = () => {
    const newest = new Map<string, Ack>();
    for (const ack of recorded.acks) {
      const seen = newest.get(ack.sceneId);
      if (!seen || ack.clientRevision > seen.clientRevision) newest.set(ack.sceneId, ack);
    }
    return newest;
  };
  const typedAcknowledged = () => {
    for (const [sceneId, answer] of typed)
      expect(newestAcks().get(sceneId)?.answer, `scene ${sceneId}: the last answer given was acknowledged`).toEqual(
        answer,
      );
  };
  // the page may show "saved" a moment before Playwright reports the reply: wait for the replies, then judge
  await expect
    .poll(
      () => {
        try {
          typedAcknowledged();
          return recorded.pending();
        } catch {
          return -1;
        }
      },
      { timeout: 30_000 },
    )
    .toBe(0);
  typedAcknowledged();
  const newest = newestAcks();
  const rows = await db.response.findMany({ where, select: { sceneId: true, answer: true, clientRevision: true } });
  const count = new Map<string, number>();
  for (const row of rows) count.set(row.sceneId, (count.get(row.sceneId) ?? 0) + 1);
  const doubled = [...count].filter(([, n]) => n > 1).map(([id]) => id);
  const missing = [...newest.keys()].filter((id) => !count.has(id));
  const unacknowledged = [...count.keys()].filter((id) => !newest.has(id));
  expect({ doubled, missing, unacknowledged }, "rows against the acknowledged saves").toEqual({
    doubled: [],
    missing: [],
    unacknowledged: [],
  });
  for (const row of rows) {
    const ack = newest.get(row.sceneId)!;
    expect(
      { answer: row.answer, revision: row.clientRevision },
      `scene ${row.sceneId}: the newest acknowledged save`,
    ).toEqual({ answer: ack.answer, revision: ack.clientRevision });
  }
  expect([...newest.keys()].sort(), "every acknowledged scene is one the student answered").toEqual(
    [...typed.keys()].sort(),
  );
}
