/**
 * The worker thread that works through one manager's uploaded roster set
 * (lib/roster/upload-thread.ts starts it, lib/roster/upload-job.ts is what it runs): the multipart
 * form, the zip, the CSVs, the plan and the apply, so the event loop that serves lessons keeps
 * answering while a large set is read. Its answer goes back as encoded bytes (a head with the
 * status, then chunks), never as the set's rows, which would take as long to receive as to read.
 * Plain JavaScript, loaded by path at run time and not bundled by Next; the TypeScript modules are
 * loaded through tsx, registered here. The thread runs at the lowest nice value, so on a busy
 * server the lessons' threads go first. It has its own database pool, closed when the job ends.
 */
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";

try {
  // /proc/thread-self → "<pid>/task/<tid>": on Linux a nice value is per thread
  os.setPriority(Number(fs.readlinkSync("/proc/thread-self").split("/").pop()), 19);
} catch {
  // no /proc, or not permitted: the thread keeps its priority
}

// the TypeScript modules through tsx, `import "server-only"` as the empty module
const { registerServerModules } = await import("../server-modules.mjs");
await registerServerModules();
const { runUploadJob } = await import("./upload-job.ts");
const { db } = await import("../db.ts");

const encoder = new TextEncoder();
let started = false;
function send(bytes, head) {
  if (!started) parentPort.postMessage({ head });
  started = true;
  parentPort.postMessage({ chunk: bytes }, [bytes.buffer]);
}

try {
  await runUploadJob(workerData, {
    json: (status, value) => send(encoder.encode(JSON.stringify(value)), { status, ndjson: false }),
    line: (value) => send(encoder.encode(`${JSON.stringify(value)}\n`), { status: 200, ndjson: true }),
  });
  parentPort.postMessage({ end: true });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
} finally {
  await db().$disconnect().catch(() => undefined);
  // ends this thread (not the process), whatever timers the modules it loaded have left
  process.exit(0);
}
