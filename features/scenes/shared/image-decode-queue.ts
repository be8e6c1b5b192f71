/**
 * The image decoder's queue: one image decoded at a time per process (decoding is CPU and memory
 * heavy, and a burst of uploads must not hold the threads the sign-ins' password hashing needs),
 * the waiting ones taken from each school in turn, so a school that sends many at once waits
 * behind its own uploads, never another school's. At most PER_SCHOOL wait per school and TOTAL in
 * all; one more is refused at once (null: the upload answers "busy", 429 with Retry-After). One
 * queue per process, kept on globalThis so that every route bundle of Next.js shares it.
 * Framework-free.
 */
export const DECODE_WAITING_PER_SCHOOL = 4;
export const DECODE_WAITING_TOTAL = 24;

interface Queue {
  /** the starts of the waiting jobs by school; the first school in the map goes next */
  waiting: Map<string, (() => void)[]>;
  count: number;
  running: boolean;
}
const shared = globalThis as unknown as { imageDecodeQueue?: Queue };
const queue = (): Queue => (shared.imageDecodeQueue ??= { waiting: new Map(), count: 0, running: false });

function startNext(q: Queue): void {
  if (q.running) return;
  const first = q.waiting.entries().next();
  if (first.done) return;
  const [school, starts] = first.value;
  const start = starts.shift()!;
  // the school goes to the back: every other school waiting has its turn first
  q.waiting.delete(school);
  if (starts.length > 0) q.waiting.set(school, starts);
  q.count--;
  q.running = true;
  start();
}

/** `work` in its school's turn, or null when the school's (or the process's) queue is full. */
export function decodeInTurn<T>(school: string, work: () => Promise<T>): Promise<T> | null {
  const q = queue();
  const starts = q.waiting.get(school) ?? [];
  if (starts.length >= DECODE_WAITING_PER_SCHOOL || q.count >= DECODE_WAITING_TOTAL) return null;
  return new Promise<T>((resolve, reject) => {
    starts.push(() => {
      work()
        .then(resolve, reject)
        .finally(() => {
          q.running = false;
          startNext(q);
        });
    });
    q.waiting.set(school, starts);
    q.count++;
    startNext(q);
  });
}
