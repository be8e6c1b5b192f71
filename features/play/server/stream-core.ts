import { onShutdown } from "@/platform/shutdown";
import { errorField, log } from "@/platform/ops/log";
import type { LiveKind, LiveTopic } from "../../../platform/notify/channel";
import type { Subscribe } from "../../../platform/notify/listen";

/**
 * A live event stream, whoever carries it: the app's route handlers wrap it in a
 * web ReadableStream (features/play/server/sse.ts), the production server writes it straight to
 * the socket (features/play/server/stream-endpoint.ts: 2,000 students' streams through Next's
 * response pipeline cost more than the writes themselves). Framework-free.
 */
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
 * as one query each (platform/auth/session.ts, features/play/server/session-commands.ts), not one per
 * stream. Returns the stop.
 */
const TICK_MS = 1_000;
const shared = globalThis as unknown as {
  manabiyaBeats?: Map<() => void, number>;
  manabiyaBeatTicker?: NodeJS.Timeout;
};
const beats = (shared.manabiyaBeats ??= new Map());
function onHeartbeat(beat: () => void): () => void {
  beats.set(beat, Date.now() + HEARTBEAT_MS);
  shared.manabiyaBeatTicker ??= setInterval(() => {
    const now = Date.now();
    for (const [b, due] of beats) {
      if (due > now) continue;
      beats.set(b, now + HEARTBEAT_MS);
      b();
    }
  }, TICK_MS);
  return () => {
    beats.delete(beat);
    if (beats.size === 0 && shared.manabiyaBeatTicker) {
      clearInterval(shared.manabiyaBeatTicker);
      shared.manabiyaBeatTicker = undefined;
    }
  };
}

/**
 * A state's event, serialised and encoded once however many streams send it:
 * the students of a class share one state object per change (features/play/server/state-queries.ts).
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
const PREAMBLE = encoder.encode(`: ${" ".repeat(2048)}\nretry: 3000\n\n`);

export interface StreamSink {
  /** throws when the connection is gone */
  write(bytes: Uint8Array): void;
  end(): void;
}

export interface LiveStreamOptions {
  subscribe: Subscribe;
  topic: LiveTopic;
  kinds: LiveKind[];
  snapshot: () => Promise<unknown>;
  onTick?: () => Promise<void>;
  onClose?: () => Promise<void>;
  /** Send the snapshot again with each heartbeat when it changed (the teacher's grid: a polling student who vanished turns offline without any notification). */
  refreshOnTick?: boolean;
  release?: () => void;
  stillValid?: () => Promise<boolean>;
}

/**
 * The stream's life: a ~2 KB comment first (it pushes the headers through proxies
 * that buffer small responses), the snapshot at once, then again whenever a
 * notification of one of `kinds` arrives on `topic` (counts settle for 40 ms; only
 * when it changed), a heartbeat every 15 s (`onTick` runs with it), `onClose` when it
 * ends. `release` runs once when the stream ends, however it ends (its place among
 * the capped streams: features/play/server/stream-slots.ts). `stillValid` runs with each
 * heartbeat: a stream whose session has ended since (sign-out, new password or code,
 * account stopped) is closed, so a copied cookie does not keep one open. At shutdown
 * the client is told to reconnect within a second (to another instance). `close`
 * ends it from outside (the client went); `started` resolves once the first state is sent.
 */
export function openLiveStream(
  sink: StreamSink,
  options: LiveStreamOptions,
): { close: () => void; started: Promise<void> } {
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let stopBeating: (() => void) | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let last = "";
  const write = (bytes: Uint8Array) => {
    if (closed) return;
    try {
      sink.write(bytes);
    } catch {
      close();
    }
  };
  const close = () => {
    if (closed) return;
    closed = true;
    forgetShutdown();
    unsubscribe?.();
    stopBeating?.();
    clearTimeout(debounce);
    options.release?.();
    void options.onClose?.().catch(() => undefined);
    try {
      sink.end();
    } catch {
      // already ended
    }
  };
  const send = async () => {
    try {
      const frame = frameOf(await options.snapshot());
      if (frame.data !== last) {
        last = frame.data;
        write(frame.bytes);
      }
    } catch (error) {
      log().error({ event: "live.snapshot.failed", ...errorField(error) }, "live: snapshot failed");
    }
  };
  // the server is stopping: end the stream so the browser reconnects (to another instance), soon
  const forgetShutdown = onShutdown(() => {
    write(encoder.encode("retry: 1000\n\n"));
    close();
  });
  write(PREAMBLE);
  // sends run one after another, so a newer state is never overtaken by an older one
  let sending: Promise<void> = Promise.resolve();
  const queueSend = () => {
    sending = sending.then(send);
  };
  const started = (async () => {
    try {
      const stop = await options.subscribe(options.topic, (m) => {
        if (m.kind !== "resync" && !options.kinds.includes(m.kind)) return;
        clearTimeout(debounce);
        // a state change (the teacher moved on) goes out at once; counts settle for 40 ms first
        if (m.kind === "counts") debounce = setTimeout(queueSend, 40);
        else queueSend();
      });
      if (closed) return stop();
      unsubscribe = stop;
    } catch (error) {
      // the database is away: end the stream (the client reconnects or polls)
      log().warn({ event: "live.subscribe.failed", ...errorField(error) }, "live: subscribe failed");
      return close();
    }
    queueSend();
    await sending;
    if (closed) return;
    stopBeating = onHeartbeat(() => {
      void (async () => {
        if (options.stillValid && !(await options.stillValid().catch(() => true))) return close();
        write(encoder.encode(`event: ping\ndata: ${Date.now()}\n\n`));
        if (options.refreshOnTick) queueSend();
        await options.onTick?.();
      })().catch(() => undefined);
    });
  })();
  return { close, started };
}
