import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { problem } from "@/lib/http";
import { log } from "@/lib/ops/log";
import type { UploadJob } from "./upload-job";

/** The most a job's thread may hold (a 64 MB upload's rows and plan, with room). */
const HEAP_MB = 2048;

type ThreadMessage = { head: { status: number; ndjson: boolean } } | { chunk: Uint8Array } | { end: true } | { failed: string };

const headersOf = (ndjson: boolean) => ({
  "Cache-Control": "no-store",
  ...(ndjson ? { "Content-Type": "application/x-ndjson; charset=utf-8", "X-Accel-Buffering": "no" } : { "Content-Type": "application/json" }),
});

function startThread(job: UploadJob): Worker {
  const { body } = job;
  // the upload's bytes move to the thread when they own their buffer (a small body in Node's shared pool is copied)
  const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
  // Loaded by path at run time and never bundled: Turbopack follows a `new Worker(path)` into the file
  // (lib/students/sheets-render.ts); Reflect.construct is opaque to it.
  const file = path.join(process.cwd(), "lib", "roster", "upload-worker.mjs");
  return Reflect.construct(Worker, [file, { workerData: job, transferList: own ? [body.buffer] : [], resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } }]) as Worker;
}

/**
 * Runs an upload job (lib/roster/upload-job.ts) in a worker thread of its own (upload-worker.mjs)
 * and answers with what it sends: the JSON answer, or the apply's NDJSON lines as they come. A
 * thread that fails before answering is a 500; after, the stream ends with `{"error":"INTERNAL"}`.
 * `done` is called once, when the thread has ended (the academy's slot is held until then).
 */
export function runUploadJobInThread(job: UploadJob, done: () => void): Promise<Response> {
  const worker = startThread(job);
  return new Promise<Response>((resolve) => {
    let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
    let finished = false;
    const finish = (failure?: string) => {
      if (finished) return;
      finished = true;
      if (failure) log().error({ event: "roster.upload.failed", error: failure.slice(0, 2000) }, "roster upload thread failed");
      if (!stream) return resolve(problem(500, "INTERNAL"));
      if (failure) stream.enqueue(new TextEncoder().encode(`${JSON.stringify({ error: "INTERNAL" })}\n`));
      stream.close();
    };
    worker.on("message", (m: ThreadMessage) => {
      if ("head" in m) {
        const body = new ReadableStream<Uint8Array>({ start: (c) => void (stream = c) });
        resolve(new Response(body, { status: m.head.status, headers: headersOf(m.head.ndjson) }));
      } else if ("chunk" in m) stream?.enqueue(m.chunk);
      else if ("end" in m) finish();
      else finish(m.failed);
    });
    worker.on("error", (error) => finish(error.stack ?? String(error)));
    worker.once("exit", (code) => {
      finish(`the thread exited (${code})`);
      done();
    });
  });
}
