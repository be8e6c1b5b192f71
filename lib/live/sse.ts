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
  const encoder = new TextEncoder();
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let last = "";
  let forgetShutdown: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const send = async () => {
        try {
          const data = JSON.stringify(await options.snapshot());
          if (data !== last) {
            last = data;
            write(`event: state\ndata: ${data}\n\n`);
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
        clearInterval(heartbeat);
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
      heartbeat = setInterval(() => {
        void (async () => {
          if (options.stillValid && !(await options.stillValid().catch(() => true))) return close();
          write(`event: ping\ndata: ${Date.now()}\n\n`);
          await options.onTick?.();
        })().catch(() => undefined);
      }, HEARTBEAT_MS);
      if (signal.aborted) close();
    },
    cancel() {
      closed = true;
      forgetShutdown?.();
      options.release?.();
      unsubscribe?.();
      clearInterval(heartbeat);
      clearTimeout(debounce);
      void options.onClose?.().catch(() => undefined);
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
