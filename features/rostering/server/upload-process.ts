import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { problem } from "@/platform/http";
import { forkIdleChild, streamChildFile } from "@/platform/ops/idle-child";
import { log } from "@/platform/ops/log";
import type { UploadWork } from "./upload-job";

/** The most a job's process may hold (a 64 MB upload's rows and plan, with room). */
const HEAP_MB = 2048;

/**
 * What the child sends (upload-child.mjs): its JSON answer as a file to stream, or the head and the
 * bytes of NDJSON lines; then its end, or why it failed.
 */
type ChildMessage =
  | { answer: { status: number; file: string } }
  | { head: { status: number; ndjson: boolean } }
  | { chunk: Uint8Array }
  | { end: true }
  | { failed: string };

/** The job as the child receives it: the upload's bytes are in a file of a directory only this user can read. */
export type ChildJob = UploadWork & { bodyFile: string };

/** An upload kept in a file of a private directory until its job's child has read it (`drop` removes both). */
export interface StoredUpload {
  file: string;
  drop: () => void;
}

const headersOf = (ndjson: boolean) => ({
  "Cache-Control": "no-store",
  ...(ndjson
    ? { "Content-Type": "application/x-ndjson; charset=utf-8", "X-Accel-Buffering": "no" }
    : { "Content-Type": "application/json" }),
});

/**
 * A new private directory (only this user can read it) for one upload's file, which `save` writes:
 * the body as it arrives (platform/http/index.ts saveBodyWithin), never whole in this process's memory (a 64 MB
 * body held here set off full collections of the server's heap while it arrived).
 */
export async function storeUpload<T>(save: (file: string) => Promise<T>): Promise<{ upload: StoredUpload; saved: T }> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "manabiya-roster-"));
  const upload = {
    file: path.join(dir, "body"),
    drop: () => fs.rm(dir, { recursive: true, force: true }, () => undefined),
  };
  try {
    return { upload, saved: await save(upload.file) };
  } catch (error) {
    upload.drop();
    throw error;
  }
}

/** Starts the child on the job and its upload. */
function startChild(job: UploadWork, upload: StoredUpload) {
  // the app's own modules run in the child, and read its settings (database, code key) as the server does
  const child = forkIdleChild(["features", "rostering", "server", "upload-child.mjs"], [], {
    heapMb: HEAP_MB,
    env: process.env,
  });
  child.send({ job: { ...job, bodyFile: upload.file } satisfies ChildJob });
  return child;
}

/**
 * Runs an upload job (features/rostering/server/upload-job.ts) on a stored upload in a child process of its own (upload-child.mjs),
 * every thread of it at the lowest CPU priority, and answers with what it sends: the JSON answer
 * (streamed from the file it wrote, in 64 KB reads), or the apply's NDJSON lines as they come. A child that fails before answering is a 500; after,
 * the stream ends with `{"error":"INTERNAL"}`. `done` is called once, as soon as the job's work is
 * over (a JSON answer arriving, which is always the job's last act; the NDJSON stream's end; its
 * failure; or the child's exit; the academy's slot is held until then): a manager who sends the next
 * set on seeing the answer is not told "busy" while the child, at idle priority and perhaps not
 * scheduled for a while on a busy server, sends its end, closes its database connection and exits.
 */
export function runUploadJobInChild(job: UploadWork, upload: StoredUpload, done: () => void): Promise<Response> {
  const child = startChild(job, upload);
  return new Promise<Response>((resolve) => {
    let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
    let answered = false;
    // the JSON answer's file being opened: the end (and the directory's removal) waits for it
    let opening: Promise<unknown> = Promise.resolve();
    let finished = false;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      done();
    };
    const finish = (failure?: string) => {
      if (finished) return;
      finished = true;
      release();
      if (failure)
        log().error({ event: "roster.upload.failed", error: failure.slice(0, 2000) }, "roster upload child failed");
      if (!answered) return resolve(problem(500, "INTERNAL"));
      if (failure) stream?.enqueue(new TextEncoder().encode(`${JSON.stringify({ error: "INTERNAL" })}\n`));
      stream?.close();
    };
    const answer = (body: ReadableStream<Uint8Array>, status: number, ndjson: boolean) => {
      answered = true;
      resolve(new Response(body, { status, headers: headersOf(ndjson) }));
    };
    child.on("message", (m: ChildMessage) => {
      if ("answer" in m) {
        // the JSON answer is the job's last act: the slot is free before the manager can read it
        release();
        const { status, file } = m.answer;
        opening = streamChildFile(file).then(
          (body) => answer(body, status, false),
          (error: unknown) => finish(String(error)),
        );
      } else if ("head" in m)
        answer(new ReadableStream<Uint8Array>({ start: (c) => void (stream = c) }), m.head.status, m.head.ndjson);
      else if ("chunk" in m) stream?.enqueue(m.chunk);
      else if ("end" in m) void opening.then(() => finish());
      else void opening.then(() => finish(m.failed));
    });
    child.on("error", (error) => void opening.then(() => finish(error.stack ?? String(error))));
    child.once("exit", (code, signal) => {
      void opening.then(() => {
        finish(`the child exited (${code ?? signal})`);
        upload.drop();
      });
    });
  });
}
