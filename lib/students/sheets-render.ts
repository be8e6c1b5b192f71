import "server-only";
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { countPdfBusy, observePdfJob } from "@/lib/ops/metrics";
import type { SheetCard, SheetTexts } from "./sheets";

/**
 * Sign-in sheet PDFs are rendered off the process that serves live classes: in one child process
 * per server process (sheets-worker.mjs), one print at a time, the others waiting their turn in
 * order. The child runs every one of its threads at the lowest CPU priority, its garbage
 * collector's too: a worker thread shared the server's garbage-collector threads, which ran at
 * normal priority beside the event loop and held back a class's live events (docs/benchmarks.md,
 * "A print beside a live lesson"). At most MAX_WAITING prints wait; one more is refused
 * (SheetsBusyError: the route answers 503 with Retry-After). The child is kept for the next print
 * and ended after a minute without one (its memory goes with it); a child that fails or runs out
 * of memory fails only its print. It gets no secrets: the cards and texts are all it needs.
 */
const MAX_WAITING = 4;
const IDLE_MS = 60_000;
const HEAP_MB = 1536;
export const SHEETS_RETRY_AFTER_S = 30;

export class SheetsBusyError extends Error {
  constructor() {
    super("sign-in sheets: too many prints waiting");
    this.name = "SheetsBusyError";
  }
}

let child: ChildProcess | undefined;
let idle: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

function startRenderer(): ChildProcess {
  // Loaded by path at run time and never bundled: Turbopack follows a `fork(path)` or `new Worker(path)`
  // into the file and its tsx (esbuild) and fails on them; Reflect.apply is opaque to it.
  const file = path.join(process.cwd(), "lib", "students", "sheets-worker.mjs");
  const c = Reflect.apply(fork, undefined, [
    file,
    [],
    {
      // typed arrays cross the channel as bytes, not as JSON
      serialization: "advanced",
      execArgv: [`--max-old-space-size=${HEAP_MB}`],
      env: { PATH: process.env.PATH ?? "", NODE_ENV: process.env.NODE_ENV ?? "production" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  ]) as ChildProcess;
  c.once("exit", () => {
    if (child === c) child = undefined;
  });
  c.on("error", () => undefined); // a failed send or spawn: the print's own listener answers it
  // never what keeps the server running (a shutdown exits, and the child follows: sheets-worker.mjs)
  c.unref();
  c.channel?.unref();
  return c;
}

function stopRenderer() {
  const c = child;
  child = undefined;
  if (c && c.exitCode === null) c.kill();
}

/**
 * Both ways in pieces: the cards as the caller makes them (a chunk of students at a time, so that the
 * server never holds a whole print's students at once), the PDF in the child's PIECE_BYTES. One message
 * of 1,000 cards or of a whole PDF (megabytes) would be serialized or read back in one block on the thread that
 * serves live classes.
 */
function renderInChild(cards: AsyncIterable<SheetCard[]>, texts: () => SheetTexts): Promise<Buffer> {
  clearTimeout(idle);
  const c = (child ??= startRenderer());
  return new Promise<Buffer>((resolve, reject) => {
    const pieces: Buffer[] = [];
    let failed = false;
    const settle = () => {
      c.off("message", onMessage);
      c.off("error", onError);
      c.off("exit", onExit);
    };
    const onMessage = (m: { piece?: Uint8Array; done?: boolean; error?: string }) => {
      if (m.piece) pieces.push(Buffer.from(m.piece.buffer, m.piece.byteOffset, m.piece.byteLength));
      else if (m.done) {
        settle();
        resolve(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
      } else {
        settle();
        reject(new Error(`sign-in sheets: ${m.error}`));
      }
    };
    const onError = (error: unknown) => {
      if (failed) return;
      failed = true;
      settle();
      // the child may hold some of this print's cards: it goes, and the next print starts a new one
      if (child === c) stopRenderer();
      reject(error);
    };
    const onExit = (code: number | null, signal: string | null) => onError(new Error(`sign-in sheets: the renderer exited (${code ?? signal})`));
    c.on("message", onMessage);
    c.on("error", onError);
    c.on("exit", onExit);
    void (async () => {
      try {
        for await (const piece of cards) {
          if (failed) return;
          c.send({ cards: piece });
        }
        if (!failed) c.send({ texts: texts(), end: true });
      } catch (error) {
        onError(error); // making the cards failed (the database away): this print fails
      }
    })();
  });
}

/**
 * The PDF of `cards`, rendered in the child process when its turn comes: the pieces are made (read) only
 * then, and `texts` is asked for after the last one.
 */
export function renderSigninSheets(cards: AsyncIterable<SheetCard[]>, texts: () => SheetTexts): Promise<Buffer> {
  if (waiting >= MAX_WAITING + 1) {
    countPdfBusy();
    return Promise.reject(new SheetsBusyError());
  }
  waiting++;
  const turn = queue.then(() => observePdfJob(() => renderInChild(cards, texts)));
  queue = turn
    .catch(() => undefined)
    .finally(() => {
      waiting--;
      if (waiting > 0) return;
      clearTimeout(idle);
      idle = setTimeout(stopRenderer, IDLE_MS).unref();
    });
  return turn;
}
