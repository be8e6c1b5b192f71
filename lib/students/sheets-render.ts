import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { countPdfBusy, observePdfJob } from "@/lib/ops/metrics";
import type { SheetCard, SheetTexts } from "./sheets";

/**
 * Sign-in sheet PDFs are rendered off the event loop that serves live classes: in one worker
 * thread per process (sheets-worker.mjs), one print at a time, the others waiting their turn in
 * order. At most MAX_WAITING prints wait; one more is refused (SheetsBusyError: the route answers
 * 503 with Retry-After). The worker is kept for the next print and ended after a minute without
 * one (its heap goes with it); a worker that fails or runs out of memory fails only its print.
 */
const MAX_WAITING = 4;
const IDLE_MS = 60_000;
export const SHEETS_RETRY_AFTER_S = 30;

export class SheetsBusyError extends Error {
  constructor() {
    super("sign-in sheets: too many prints waiting");
    this.name = "SheetsBusyError";
  }
}

let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

function startWorker(): Worker {
  // Loaded by path at run time and never bundled: Turbopack follows a `new Worker(path)` into the
  // worker and its tsx (esbuild) and fails on them, magic comment or not; Reflect.construct is opaque to it.
  const file = path.join(process.cwd(), "lib", "students", "sheets-worker.mjs");
  const w = Reflect.construct(Worker, [file, { resourceLimits: { maxOldGenerationSizeMb: 1536 } }]) as Worker;
  w.once("exit", () => {
    if (worker === w) worker = undefined;
  });
  return w;
}

function renderInWorker(cards: SheetCard[], texts: SheetTexts): Promise<Buffer> {
  clearTimeout(idle);
  const w = (worker ??= startWorker());
  return new Promise<Buffer>((resolve, reject) => {
    const settle = () => {
      w.off("message", onMessage);
      w.off("error", onError);
      w.off("exit", onExit);
    };
    const onMessage = (m: { pdf?: Uint8Array; error?: string }) => {
      settle();
      if (m.pdf) resolve(Buffer.from(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength));
      else reject(new Error(`sign-in sheets: ${m.error}`));
    };
    const onError = (error: Error) => {
      settle();
      if (worker === w) worker = undefined;
      void w.terminate();
      reject(error);
    };
    const onExit = (code: number) => onError(new Error(`sign-in sheets: the worker exited (${code})`));
    w.on("message", onMessage);
    w.on("error", onError);
    w.on("exit", onExit);
    w.postMessage({ cards, texts });
  });
}

/** The PDF of `cards`, rendered in the worker when its turn comes. */
export function renderSigninSheets(cards: SheetCard[], texts: SheetTexts): Promise<Buffer> {
  if (waiting >= MAX_WAITING + 1) {
    countPdfBusy();
    return Promise.reject(new SheetsBusyError());
  }
  waiting++;
  const turn = queue.then(() => observePdfJob(() => renderInWorker(cards, texts)));
  queue = turn
    .catch(() => undefined)
    .finally(() => {
      waiting--;
      if (waiting > 0) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        void worker?.terminate();
        worker = undefined;
      }, IDLE_MS).unref();
    });
  return turn;
}
