/**
 * A worker thread that renders sign-in sheet PDFs (lib/students/sheets.tsx), so that a large
 * print never holds the event loop that serves live classes (lib/students/sheets-render.ts
 * queues the prints and starts this). Plain JavaScript, loaded by path at run time and not
 * bundled by Next; the TypeScript renderer is loaded through tsx, registered here (a worker does
 * not get the loader hooks of the main thread's `node --import tsx`).
 */
import os from "node:os";
import { parentPort } from "node:worker_threads";

// The lowest CPU priority for this thread only (on Linux a nice value belongs to a thread, and
// pid 0 is the calling one): on a busy server the event loop that serves live classes goes first,
// and the print takes what is left. Elsewhere it may apply to the process or be refused: ignored.
if (os.platform() === "linux") {
  try {
    os.setPriority(19);
  } catch {
    // not permitted here: the print runs at normal priority
  }
}

const { register } = await import("tsx/esm/api");
register();
const { renderSigninSheets } = await import("./sheets.tsx");

parentPort.on("message", async ({ cards, texts }) => {
  try {
    const pdf = new Uint8Array(await renderSigninSheets(cards, texts));
    parentPort.postMessage({ pdf }, [pdf.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
