import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * `fn` over `items` in chunks of `size`, letting the event loop run between
 * chunks: a teacher's 1,000-card print is a few dozen milliseconds of work
 * on the thread that also writes every live class's next scene, and done in
 * one go it would hold each of those writes back by as much (docs/benchmarks.md,
 * the fan-out while printing).
 */
export async function mapInChunks<T, R>(items: readonly T[], size: number, fn: (chunk: T[]) => R[] | Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await nextTurn();
    out.push(...(await fn(items.slice(i, i + size))));
  }
  return out;
}
