import "server-only";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { forkIdleChild, streamChildFile } from "@/platform/ops/idle-child";
import { countPdfBusy, observePdfJob } from "@/platform/ops/metrics";
import type { SheetJob } from "./sheets-cards";

/**
 * Sign-in sheet PDFs are made off the process that serves live classes: in one child process per
 * server process (sheets-worker.mjs), one print at a time, the others waiting their turn in order.
 * Once the route has authorized a print and listed its students, everything else happens in the
 * child: reading the students, issuing first codes, making the cards and drawing the PDF. The child
 * runs every one of its threads at the lowest CPU priority, its garbage collector's too, and its
 * PDF reaches the response as a file streamed in small reads: what a print reads, makes and draws
 * never passes through this process's heap (a 1.5 MB PDF received here set off a full collection
 * of the server's heap at every print or two, on the thread that writes the live events:
 * docs/benchmarks.md, "A print beside a live lesson"). At most MAX_WAITING prints wait; one more is
 * refused (SheetsBusyError: the route answers 503 with Retry-After). The child is kept for the next
 * print and ended after a minute without one (its memory and database connection go with it); a
 * child that fails or runs out of memory fails only its print. Its environment has no secrets: the
 * database address and the code key come with each job.
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

/** A print made: its PDF (to stream, once) and what the audit log records of it. */
export interface SheetsPdf {
  body: ReadableStream<Uint8Array>;
  bytes: number;
  cards: number;
  issued: number;
}

let child: { process: ChildProcess; dir: string } | undefined;
let idle: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

function startRenderer(): { process: ChildProcess; dir: string } {
  // the child's PDFs go in a directory of this process's own (only its user can read it), removed with the child
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "manabiya-sheets-"));
  const c = forkIdleChild(["features", "people", "server", "sheets-worker.mjs"], [dir], {
    heapMb: HEAP_MB,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: process.env.NODE_ENV ?? "production" },
  });
  const started = { process: c, dir };
  c.once("exit", () => {
    if (child === started) child = undefined;
    fs.rm(dir, { recursive: true, force: true }, () => undefined);
  });
  return started;
}

function stopRenderer() {
  const c = child?.process;
  child = undefined;
  if (c && c.exitCode === null) c.kill();
}

function renderInChild(job: SheetJob): Promise<SheetsPdf> {
  clearTimeout(idle);
  const { process: c } = (child ??= startRenderer());
  return new Promise<SheetsPdf>((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      c.off("message", onMessage);
      c.off("error", onError);
      c.off("exit", onExit);
    };
    const onMessage = (m: { file?: string; bytes?: number; cards?: number; issued?: number; error?: string }) => {
      settle();
      if (m.file === undefined) return reject(new Error(`sign-in sheets: ${m.error}`));
      const { bytes = 0, cards = 0, issued = 0 } = m;
      streamChildFile(m.file).then((body) => resolve({ body, bytes, cards, issued }), reject);
    };
    const onError = (error: unknown) => {
      if (settled) return;
      settle();
      // the child may be in the middle of this print: it goes, and the next print starts a new one
      if (child?.process === c) stopRenderer();
      reject(error);
    };
    const onExit = (code: number | null, signal: string | null) =>
      onError(new Error(`sign-in sheets: the renderer exited (${code ?? signal})`));
    c.on("message", onMessage);
    c.on("error", onError);
    c.on("exit", onExit);
    c.send({ job });
  });
}

/** The PDF of `job`'s students, made in the child process when its turn comes (nothing is read or issued before). */
export function renderSigninSheets(job: SheetJob): Promise<SheetsPdf> {
  if (waiting >= MAX_WAITING + 1) {
    countPdfBusy();
    return Promise.reject(new SheetsBusyError());
  }
  waiting++;
  const turn = queue.then(() => observePdfJob(() => renderInChild(job)));
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
