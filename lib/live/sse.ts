import "server-only";
import { onShutdown } from "@/lib/shutdown";
import { type LiveKind, type LiveTopic, subscribe } from "./bus";
import { errorField, log } from "@/lib/ops/log";

export const HEARTBEAT_MS = 15_000;

/** Headers that keep proxies and compression from buffering the stream. */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-store, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
} as const;

/**
 * The heartbeats of every stream of the process, from ONE timer: each stream's
 * comes every HEARTBEAT_MS, and the streams due in the same second beat
 * together, so their session checks and presence refreshes go to the database
 * as one query each (lib/auth/session.ts, lib/live/session.ts), not one per
 * stream. Returns the stop.
 */
const TICK_MS = 1_000;
const beats = ((globalThis as unknown as { manabiyaBeats?: Map<() => void, number> }).manabiyaBeats ??= new Map());
let ticker: NodeJS.Timeout | undefined;
function onHeartbeat(beat: () => void): () => void {
  beats.set(beat, Date.now() + HEARTBEAT_MS);
  ticker ??= setInterval(() => {
    const now = Date.now();
    for (const [b, due] of beats) {
      if (due > now) continue;
      beats.set(b, now + HEARTBEAT_MS);
      b();
    }
  }, TICK_MS);
  return () => {
    beats.delete(beat);
    if (beats.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

/**
 * A state's event, serialised and encoded once however many streams send it:
 * the students of a class share one state object per change (lib/live/state.ts).
 */
const frames = new WeakMap<object, { data: string; bytes: Uint8Array }>();
const encoder = new TextEncoder();
function frameOf(state: unknown): { data: string; bytes: Uint8Array } {
  const known = state !== null && typeof state === "object" ? frames.get(state) : undefined;
  if (known) return known;
  const data = JSON.stringify(state) ?? "null";
  const frame = { data, bytes: encoder.encode(`event: state\ndata: ${data}\n\n`) };
  if (state !== null && typeof state === "object") frames.set(state, frame);
  return frame;
}

/**
 * A server-sent event stream: the snapshot at once, then again whenever a
 * notification of one of `kinds` arrives on `topic` (debounced, and only when
 * it changed), a heartbeat every 15 s (`onTick` runs with it), `onClose` when
 * the client goes. A ~2 KB comment first pushes the headers through proxies
 * that buffer small responses. `release` runs once when the stream ends, however it ends
 * (its place among the capped streams: lib/live/stream-slots.ts). `stillValid`
 * runs with each heartbeat: a stream whose session has ended since (sign-out,
 * new password or code, account stopped) is closed, so a copied cookie does
 * not keep one open.
 */
export function sseResponse(
  signal: AbortSignal,
  options: {
    topic: LiveTopic;
    kinds: LiveKind[];
    snapshot: () => Promise<unknown>;
    onTick?: () => Promise<void>;
    onClose?: () => Promise<void>;
    release?: () => void;
    stillValid?: () => Promise<boolean>;
  },
): Response {
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let stopBeating: (() => void) | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let last = "";
  let forgetShutdown: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const writeBytes = (bytes: Uint8Array) => {
        if (closed) return;
        try {
          controller.enqueue(bytes);
        } catch {
          close();
        }
      };
      const write = (text: string) => writeBytes(encoder.encode(text));
      const send = async () => {
        try {
          const frame = frameOf(await options.snapshot());
          if (frame.data !== last) {
            last = frame.data;
            writeBytes(frame.bytes);
          }
        } catch (error) {
          log().error({ event: "live.snapshot.failed", ...errorField(error) }, "live: snapshot failed");
        }
      };
      const close = () => {
        if (closed) return;
        closed = true;
        forgetShutdown?.();
        unsubscribe?.();
        stopBeating?.();
        clearTimeout(debounce);
        options.release?.();
        void options.onClose?.().catch(() => undefined);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      signal.addEventListener("abort", close);
      // the server is stopping: end the stream so the browser reconnects (to another instance), soon
      forgetShutdown = onShutdown(() => {
        write("retry: 1000\n\n");
        close();
      });
      write(`: ${" ".repeat(2048)}\nretry: 3000\n\n`);
      // sends run one after another, so a newer state is never overtaken by an older one
      let sending: Promise<void> = Promise.resolve();
      const queueSend = () => {
        sending = sending.then(send);
      };
      try {
        unsubscribe = await subscribe(options.topic, (m) => {
          if (m.kind !== "resync" && !options.kinds.includes(m.kind)) return;
          clearTimeout(debounce);
          // a state change (the teacher moved on) goes out at once; counts settle for 40 ms first
          if (m.kind === "counts") debounce = setTimeout(queueSend, 40);
          else queueSend();
        });
      } catch (error) {
        // the database is away: end the stream (the client reconnects or polls)
        log().warn({ event: "live.subscribe.failed", ...errorField(error) }, "live: subscribe failed");
        close();
        return;
      }
      queueSend();
      await sending;
      stopBeating = onHeartbeat(() => {
        void (async () => {
          if (options.stillValid && !(await options.stillValid().catch(() => true))) return close();
          write(`event: ping\ndata: ${Date.now()}\n\n`);
          await options.onTick?.();
        })().catch(() => undefined);
      });
      if (signal.aborted) close();
    },
    cancel() {
      closed = true;
      forgetShutdown?.();
      options.release?.();
      unsubscribe?.();
      stopBeating?.();
      clearTimeout(debounce);
      void options.onClose?.().catch(() => undefined);
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
