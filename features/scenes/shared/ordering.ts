import { z } from "zod";

/**
 * 並べ替え (features/scenes/README.md "Ordering and matching"): the teacher writes the items in the right order,
 * which is the key; a student puts them in order and answers `{ order: [item ids] }`. Pure, shared by the server
 * (answers, marking, statistics) and the pages.
 */

/** What these functions read of an ordering scene's content (schema.ts `orderingContent`): its items, keyed by id. */
interface Content<Item extends { id: string } = { id: string }> {
  items: Item[];
}

/** An answer: every item once, in the student's order. */
export function orderingAnswerSchema(content: Content) {
  const ids = content.items.map((i) => i.id) as [string, ...string[]];
  return z
    .object({ order: z.array(z.enum(ids)).length(ids.length) })
    .strict()
    .refine((a) => new Set(a.order).size === a.order.length, "every item once");
}

/** The right order: the item ids as the teacher wrote them. */
export const orderingKey = (content: Content) => content.items.map((i) => i.id);

/** Whether `answer` puts every item where the key has it. */
export function orderingRight(content: Content, answer: Record<string, unknown>): boolean {
  const key = orderingKey(content);
  const order: unknown = answer.order;
  return Array.isArray(order) && order.length === key.length && key.every((id, i) => order[i] === id);
}

/** FNV-1a: a small stable hash of a string (for the shuffle, not for security). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * `list` in the order a respondent first sees it: shuffled by `seed` (the same student sees the same order every
 * time), never the right order itself (turned one step when the shuffle gave it back).
 */
export function shuffledFor<T extends { id: string }>(list: T[], seed: string): T[] {
  const out = [...list].sort((a, b) => hash(`${seed}:${a.id}`) - hash(`${seed}:${b.id}`) || (a.id < b.id ? -1 : 1));
  return out.every((x, i) => x.id === list[i]!.id) ? [...out.slice(1), out[0]!] : out;
}

/** Per position of the key: the item that belongs there and how many put it there (from `cross[item][position]`). */
export function positionsRight<Item extends { id: string }>(
  content: Content<Item>,
  cross: Record<string, Record<string, number>>,
) {
  return content.items.map((item, i) => ({ item, right: cross[item.id]?.[String(i)] ?? 0 }));
}
