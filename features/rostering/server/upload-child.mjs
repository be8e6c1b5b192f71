/**
 * The child process that works through one manager's uploaded roster set (features/rostering/server/upload-process.ts
 * starts it, features/rostering/server/upload-job.ts is what it runs): the multipart form, the zip, the CSVs, the
 * plan and the apply, so that the process serving lessons keeps answering while a large set is read.
 * Every thread of it runs at the lowest CPU priority (platform/ops/lowest-priority.mjs), its garbage
 * collector included. It receives the job over its IPC channel with the upload in a file (read, then
 * removed), and answers in the upload's directory: a JSON answer (a plan, a rollover's result) as a
 * file the parent streams, the apply's NDJSON lines as messages (a head with the status, then each
 * line's bytes), never as the set's rows. Plain JavaScript, loaded by path at run time and not bundled
 * by Next; the TypeScript modules are loaded through tsx (startIdleChild, platform/server-modules.mjs). It
 * ends after its one job, or when its parent goes.
 */
import fs from "node:fs";
import path from "node:path";
import { startIdleChild } from "../../../platform/server-modules.mjs";

const [{ runUploadJob }, { db }] = await startIdleChild(import.meta.url, [
  "./upload-job.ts",
  "../../../platform/db/index.ts",
]);

const encoder = new TextEncoder();
const sent = (message) => new Promise((resolve) => process.send(message, undefined, {}, () => resolve()));
let started = false;
let sending = Promise.resolve();

/** Sends NDJSON lines in order, the head first. */
function sendLine(bytes) {
  sending = sending.then(async () => {
    if (!started) await sent({ head: { status: 200, ndjson: true } });
    started = true;
    await sent({ chunk: bytes });
  });
}

/** Writes the one JSON answer to `file` (this user only) and tells the parent, which streams it. */
function sendJson(file, status, value) {
  sending = sending.then(async () => {
    await fs.promises.writeFile(file, encoder.encode(JSON.stringify(value)), { mode: 0o600 });
    await sent({ answer: { status, file } });
  });
}

process.once("message", async ({ job }) => {
  try {
    const body = new Uint8Array(await fs.promises.readFile(job.bodyFile));
    await fs.promises.rm(job.bodyFile, { force: true });
    const answer = path.join(path.dirname(job.bodyFile), "answer.json");
    await runUploadJob(
      { ...job, body },
      {
        json: (status, value) => sendJson(answer, status, value),
        line: (value) => sendLine(encoder.encode(`${JSON.stringify(value)}\n`)),
      },
    );
    await sending;
    await sent({ end: true });
  } catch (error) {
    await sending.catch(() => undefined);
    await sent({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    await db()
      .$disconnect()
      .catch(() => undefined);
    process.exit(0);
  }
});
