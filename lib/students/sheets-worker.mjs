/**
 * A worker thread that renders sign-in sheet PDFs (lib/students/sheets.tsx), so that a large
 * print never holds the event loop that serves live classes (lib/students/sheets-render.ts
 * queues the prints and starts this). Plain JavaScript, loaded by path at run time and not
 * bundled by Next; the TypeScript renderer is loaded through tsx, registered here (a worker does
 * not get the loader hooks of the main thread's `node --import tsx`).
 */
import { parentPort } from "node:worker_threads";

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
