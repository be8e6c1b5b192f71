/**
 * The child process that renders sign-in sheet PDFs (lib/students/sheets.tsx), so that a large
 * print never competes with the process that serves live classes (lib/students/sheets-render.ts
 * queues the prints, starts this with `fork` and talks to it over its IPC channel). Plain
 * JavaScript, loaded by path at run time and not bundled by Next; the TypeScript renderer is
 * loaded through tsx, registered here. It ends when its parent goes.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

// The lowest CPU priority for every thread of this process: the JavaScript thread and the garbage
// collector's and libuv's threads alike (threads started later inherit it), so that on a busy server
// the process that serves live classes goes first and the print takes what is left. On Linux the
// threads are put in the SCHED_IDLE class (util-linux's `chrt`): a nice value alone is a smaller
// share, but the kernel's scheduler still lets a niced print finish its time slice before a woken
// event loop runs, a few milliseconds at every step of a live event (docs/benchmarks.md). A nice
// value too, where `chrt` is missing; elsewhere, the process's priority if the platform allows it.
function lowestPriority() {
  let threads = [];
  try {
    threads = fs.readdirSync("/proc/self/task").map(Number);
  } catch {
    // no /proc: the process (or its main thread) only
  }
  for (const tid of threads.length > 0 ? threads : [0]) {
    try {
      os.setPriority(tid, 19);
    } catch {
      // not permitted here: that thread keeps its priority
    }
  }
  if (threads.length > 0) {
    try {
      execFileSync("chrt", ["--idle", "--all-tasks", "--pid", "0", String(process.pid)], { stdio: "ignore", timeout: 5_000 });
    } catch {
      // no chrt (or not permitted): the nice value above
    }
  }
}
lowestPriority();

process.on("disconnect", () => process.exit(0));

const { register } = await import("tsx/esm/api");
register();
const { renderSigninSheets } = await import("./sheets.tsx");
lowestPriority(); // any thread started while loading

// The cards arrive in pieces and then the texts (`end`); the PDF goes back in pieces of PIECE_BYTES and
// then `done`, each a message of its own (lib/students/sheets-render.ts).
const PIECE_BYTES = 256 * 1024;
let cards = [];
process.on("message", async (message) => {
  if (!message.end) {
    cards.push(...message.cards);
    return;
  }
  const these = cards;
  cards = [];
  try {
    const pdf = await renderSigninSheets(these, message.texts);
    for (let at = 0; at < pdf.byteLength; at += PIECE_BYTES) process.send?.({ piece: new Uint8Array(pdf.buffer, pdf.byteOffset + at, Math.min(PIECE_BYTES, pdf.byteLength - at)) });
    process.send?.({ done: true });
  } catch (error) {
    process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
