import "server-only";
import { subscribe } from "../../../platform/notify/bus";
import { type LiveStreamCommon, openLiveStream, SSE_HEADERS } from "./stream-core";

export { HEARTBEAT_MS, SSE_HEADERS } from "./stream-core";

/**
 * A server-sent event stream as a route handler's Response (features/play/server/stream-core.ts
 * says what it carries): ended when the request is aborted or the reader cancels.
 */
export function sseResponse(
  signal: AbortSignal,
  options: Omit<LiveStreamCommon, "subscribe"> & { snapshot: () => Promise<unknown> },
): Response {
  let live: ReturnType<typeof openLiveStream> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      live = openLiveStream(
        { write: (bytes) => controller.enqueue(bytes), end: () => controller.close() },
        { ...options, subscribe },
      );
      signal.addEventListener("abort", live.close);
      if (signal.aborted) live.close();
      await live.started;
    },
    cancel() {
      live?.close();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
