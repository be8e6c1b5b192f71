/**
 * The child process that works through one manager's uploaded roster set (lib/roster/upload-process.ts
 * starts it, lib/roster/upload-job.ts is what it runs): the multipart form, the zip, the CSVs, the
 * plan and the apply, so that the process serving lessons keeps answering while a large set is read.
 * Every thread of it runs at the lowest CPU priority (lib/ops/lowest-priority.mjs), its garbage
 * collector included. It receives the job over its IPC channel with the upload in a file (read, then
 * removed), and sends its answer back as encoded bytes in pieces (a head with the status, then
 * chunks of at most PIECE bytes), never as the set's rows. Plain JavaScript, loaded by path at run
 * time and not bundled by Next; the TypeScript modules are loaded through tsx, registered here. It
 * ends after its one job, or when its parent goes.
 */
import fs from "node:fs";
import { lowestPriority } from "../ops/lowest-priority.mjs";

lowestPriority();
process.on("disconnect", () => process.exit(0));

// the TypeScript modules through tsx, `import "server-only"` as the empty module
const { registerServerModules } = await import("../server-modules.mjs");
await registerServerModules();
const { runUploadJob } = await import("./upload-job.ts");
const { db } = await import("../db.ts");
lowestPriority(); // any thread started while loading

/** The most bytes of the answer in one message: the parent never receives a large block at once. */
const PIECE = 256 * 1024;
const encoder = new TextEncoder();
const sent = (message) => new Promise((resolve) => process.send(message, undefined, {}, () => resolve()));
let started = false;
let sending = Promise.resolve();

/** Sends the answer's bytes in order, the head first. */
function send(bytes, head) {
  sending = sending.then(async () => {
    if (!started) await sent({ head });
    started = true;
    for (let at = 0; at < bytes.byteLength; at += PIECE) await sent({ chunk: bytes.subarray(at, at + PIECE) });
  });
}

process.once("message", async ({ job }) => {
  try {
    const body = new Uint8Array(await fs.promises.readFile(job.bodyFile));
    await fs.promises.rm(job.bodyFile, { force: true });
    await runUploadJob({ ...job, body }, {
      json: (status, value) => send(encoder.encode(JSON.stringify(value)), { status, ndjson: false }),
      line: (value) => send(encoder.encode(`${JSON.stringify(value)}\n`), { status: 200, ndjson: true }),
    });
    await sending;
    await sent({ end: true });
  } catch (error) {
    await sending.catch(() => undefined);
    await sent({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    await db().$disconnect().catch(() => undefined);
    process.exit(0);
  }
});
