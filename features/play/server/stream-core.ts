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

/**
 * A read shared by the streams of one topic: the production server's student streams of an activity
 * read its states once per change and each takes its own class's view of them
 * (features/play/server/stream-endpoint.ts).
 */
export interface SharedSnapshot<S> {
  /** streams on the same topic with the same key share one subscription and one `read` per change */
  key: string;
  read: () => Promise<S>;
  /** this stream's state in a read, at once (no waiting: it runs for every stream of the topic in one loop) */
  view: (shared: S) => unknown;
}

export interface LiveStreamCommon {
  subscribe: Subscribe;
  topic: LiveTopic;
  kinds: LiveKind[];
  onTick?: () => Promise<void>;
  onClose?: () => Promise<void>;
  /** Send the snapshot again with each heartbeat when it changed (the teacher's grid: a polling student who vanished turns offline without any notification). */
  refreshOnTick?: boolean;
  release?: () => void;
  stillValid?: () => Promise<boolean>;
}

export type LiveStreamOptions<S = unknown> = LiveStreamCommon &
  ({ snapshot: () => Promise<unknown>; shared?: never } | { shared: SharedSnapshot<S>; snapshot?: never });

/** A stream as its topic's fan-out sees it: given each read, it writes its view if that changed. */
interface Member {
  deliver: (shared: unknown) => void;
}

/**
 * The streams of one topic that share a read, and the ONE subscription they follow: on a change the state
 * is read once and handed to every stream in one synchronous loop (for 10,000 streams a chain of promises
 * per stream cost more than the writes: docs/benchmarks.md "The city row"). Reads run one after another,
 * so a newer state is never overtaken by an older one; a change that arrives while a read waits to start
 * is served by that read.
 */
interface FanOut {
  members: Set<Member>;
  read: () => Promise<unknown>;
  /** resolves once subscribed (rejects when the database is away) */
  subscribed: Promise<void>;
  unsubscribe?: () => void;
  /** a read is queued and has not started yet */
  queued: boolean;
  sending: Promise<void>;
  debounce?: NodeJS.Timeout;
  gone: boolean;
}

const fanOuts = new Map<string, FanOut>();
let ownKeys = 0;

/** Queues a read for every stream of `fanOut`, unless one queued has not started yet (it will see this change). */
function queueRead(fanOut: FanOut): Promise<void> {
  if (fanOut.queued) return fanOut.sending;
  fanOut.queued = true;
  fanOut.sending = fanOut.sending.then(async () => {
    fanOut.queued = false;
    if (fanOut.gone) return;
    let shared: unknown;
    try {
      shared = await fanOut.read();
    } catch (error) {
      return log().error({ event: "live.snapshot.failed", ...errorField(error) }, "live: snapshot failed");
    }
    for (const member of fanOut.members) member.deliver(shared);
  });
  return fanOut.sending;
}

function openFanOut(key: string, options: LiveStreamOptions, read: () => Promise<unknown>): FanOut {
  const fanOut: FanOut = {
    members: new Set(),
    read,
    subscribed: Promise.resolve(),
    queued: false,
    sending: Promise.resolve(),
    gone: false,
  };
  fanOut.subscribed = options
    .subscribe(options.topic, (m) => {
      if (m.kind !== "resync" && !options.kinds.includes(m.kind)) return;
      clearTimeout(fanOut.debounce);
      // a state change (the teacher moved on) goes out at once; counts settle for 40 ms first
      if (m.kind === "counts") fanOut.debounce = setTimeout(() => void queueRead(fanOut), 40);
      else void queueRead(fanOut);
    })
    .then(
      (stop) => {
        if (fanOut.gone) stop();
        else fanOut.unsubscribe = stop;
      },
      (error: unknown) => {
        // the database is away: its streams end (the client reconnects or polls), the next stream tries again
        log().warn({ event: "live.subscribe.failed", ...errorField(error) }, "live: subscribe failed");
        closeFanOut(key, fanOut);
        throw error;
      },
    );
  fanOuts.set(key, fanOut);
  return fanOut;
}

function closeFanOut(key: string, fanOut: FanOut) {
  fanOut.gone = true;
  clearTimeout(fanOut.debounce);
  fanOut.unsubscribe?.();
  if (fanOuts.get(key) === fanOut) fanOuts.delete(key);
}

/** Adds a stream to its topic's fan-out (opened with the first); returns the leave. */
function join(options: LiveStreamOptions, member: Member): { fanOut: FanOut; leave: () => void } {
  const own = options.snapshot;
  const key = own ? `own:${++ownKeys}` : `${options.topic}\0${options.kinds.join()}\0${options.shared.key}`;
  const fanOut = fanOuts.get(key) ?? openFanOut(key, options, own ?? options.shared.read);
  fanOut.members.add(member);
  return {
    fanOut,
    leave: () => {
      fanOut.members.delete(member);
      if (fanOut.members.size === 0) closeFanOut(key, fanOut);
    },
  };
}

/**
 * The stream's life: a ~2 KB comment first (it pushes the headers through proxies
 * that buffer small responses), the snapshot at once, then again whenever a
 * notification of one of `kinds` arrives on `topic` (counts settle for 40 ms; only
 * when it changed), a heartbeat every 15 s (`onTick` runs with it), `onClose` when it
 * ends. The snapshot is the stream's own (`snapshot`) or its view of a read shared by the
 * topic's streams (`shared`). `release` runs once when the stream ends, however it ends (its
 * place among the capped streams: features/play/server/stream-slots.ts). `stillValid` runs with each
 * heartbeat: a stream whose session has ended since (sign-out, new password or code,
 * account stopped) is closed, so a copied cookie does not keep one open. At shutdown
 * the client is told to reconnect within a second (to another instance). `close`
 * ends it from outside (the client went); `started` resolves once the first state is sent.
 */
export function openLiveStream<S>(
  sink: StreamSink,
  options: LiveStreamOptions<S>,
): { close: () => void; started: Promise<void> } {
  let closed = false;
  let stopBeating: (() => void) | undefined;
  let last = "";
  const write = (bytes: Uint8Array) => {
    if (closed) return;
    try {
      sink.write(bytes);
    } catch {
      close();
    }
  };
  const view = options.shared ? (options.shared.view as (shared: unknown) => unknown) : (state: unknown) => state;
  const member: Member = {
    deliver: (shared) => {
      if (closed) return;
      try {
        const frame = frameOf(view(shared));
        if (frame.data === last) return;
        last = frame.data;
        write(frame.bytes);
      } catch (error) {
        log().error({ event: "live.snapshot.failed", ...errorField(error) }, "live: snapshot failed");
      }
    },
  };
  const { fanOut, leave } = join(options as LiveStreamOptions, member);
  const close = () => {
    if (closed) return;
    closed = true;
    forgetShutdown();
    leave();
    stopBeating?.();
    options.release?.();
    void options.onClose?.().catch(() => undefined);
    try {
      sink.end();
    } catch {
      // already ended
    }
  };
  // the server is stopping: end the stream so the browser reconnects (to another instance), soon
  const forgetShutdown = onShutdown(() => {
    write(encoder.encode("retry: 1000\n\n"));
    close();
  });
  write(PREAMBLE);
  const started = (async () => {
    try {
      await fanOut.subscribed;
    } catch {
      return close();
    }
    if (closed) return;
    await queueRead(fanOut);
    if (closed) return;
    stopBeating = onHeartbeat(() => {
      void (async () => {
        if (options.stillValid && !(await options.stillValid().catch(() => true))) return close();
        write(encoder.encode(`event: ping\ndata: ${Date.now()}\n\n`));
        if (options.refreshOnTick) void queueRead(fanOut);
        await options.onTick?.();
      })().catch(() => undefined);
    });
  })();
  return { close, started };
}
