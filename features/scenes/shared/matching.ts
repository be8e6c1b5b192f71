import { z } from "zod";

/**
 * 線でつなぐ (features/scenes/README.md "Ordering and matching"): each left item goes with one right item (its
 * `correct`, the key); a student answers `{ pairs: { leftId: rightId } }` for every left item. Pure, shared by the
 * server (answers, marking, statistics) and the pages.
 */

/** What these functions read of a matching scene's content (schema.ts `matchingContent`): the items' ids and the key. */
interface Content<Left extends LeftItem = LeftItem> {
  left: Left[];
  right: { id: string }[];
}
interface LeftItem {
  id: string;
  /** The right item's id it goes with: the key, absent in a respondent's copy. */
  correct?: string | undefined;
}

/** The editor's message key when a left item names no right item. */
export const MATCH_REQUIRED = "matchRequired";

/** An answer: a right item for every left item (the same right item may serve several). */
export function matchingAnswerSchema(content: Content) {
  const rights = content.right.map((r) => r.id) as [string, ...string[]];
  const lefts = content.left.map((l) => l.id);
  return z
    .object({ pairs: z.record(z.string(), z.enum(rights)) })
    .strict()
    .refine(
      (a) => Object.keys(a.pairs).length === lefts.length && lefts.every((id) => id in a.pairs),
      "a right item for every left item",
    );
}

/** Whether the teacher gave the pairs (a respondent's copy, key.ts `withoutKey`, has none). */
export const matchingHasKey = (content: Content) => content.left.some((l) => l.correct !== undefined);

/** The key's pairs, `left>right` (ids cannot hold `>`), as feedback names them (key.ts `correctIdsOf`). */
export const matchingKey = (content: Content) =>
  content.left.flatMap((l) => (l.correct === undefined ? [] : [`${l.id}>${l.correct}`]));

/** The pairs of `matchingKey`'s strings back as left id → right id. */
export const pairsOf = (ids: string[]): Record<string, string> =>
  Object.fromEntries(ids.flatMap((s) => (s.includes(">") ? [s.split(">", 2) as [string, string]] : [])));

/** Whether `answer` pairs every left item with its key's right item. */
export function matchingRight(content: Content, answer: Record<string, unknown>): boolean {
  const pairs = answer.pairs as Record<string, unknown> | undefined;
  return Boolean(pairs && typeof pairs === "object") && content.left.every((l) => pairs![l.id] === l.correct);
}

/** The right id chosen most often in `counts` (the first in `right`'s order on a tie); null when none. */
export function mostCommon(counts: Record<string, number> | undefined, right: { id: string }[]): string | null {
  let best: string | null = null;
  for (const r of right)
    if ((counts?.[r.id] ?? 0) > 0 && (best === null || counts![r.id]! > counts![best]!)) best = r.id;
  return best;
}

/** Per left item: its right item by the key, how many matched it so, and the match chosen most often. */
export function pairsRight<Left extends LeftItem>(
  content: Content<Left>,
  cross: Record<string, Record<string, number>>,
) {
  return content.left.map((left) => ({
    left,
    right: left.correct === undefined ? 0 : (cross[left.id]?.[left.correct] ?? 0),
    common: mostCommon(cross[left.id], content.right),
  }));
}
