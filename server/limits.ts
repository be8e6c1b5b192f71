import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Env } from "@/platform/env";

/** Node's own default: large enough for the session cookie and next-auth's, small enough to bound a request's headers. */
export const MAX_HEADER_SIZE = 16 * 1024;

/**
 * The production server's limits (server/main.ts), from the environment (.env.example):
 * - headers must arrive within HTTP_HEADERS_TIMEOUT_MS of the connection (a client that dribbles
 *   them byte by byte, or opens a socket and says nothing, is closed: 408 or a plain close), and a
 *   whole request, body included, within HTTP_REQUEST_TIMEOUT_MS. Node checks both every second
 *   (its default, 30 s, would let such sockets live half a minute longer). A response is not
 *   bounded: an event stream (features/play/server/sse.ts) lives as long as the page that reads it;
 * - a socket silent in both directions for HTTP_IDLE_TIMEOUT_MS is closed (event streams send a
 *   heartbeat every 15 s), an idle keep-alive one after HTTP_KEEP_ALIVE_TIMEOUT_MS. A socket whose
 *   response the server is still making (no headers sent yet: a print waiting its turn in the
 *   renderer) is not idle: it is closed only once that response has started and then gone silent;
 * - at most HTTP_MAX_CONNECTIONS sockets, of which HTTP_MAX_CONNECTIONS_PER_IP from one address
 *   (a whole school behind one NAT shares an address: the default leaves room for it). Over
 *   either cap a new socket is closed at once, and the ones already served go on. Behind trusted
 *   reverse proxies (TRUSTED_PROXY_HOPS > 0) every socket comes from a proxy, so there is no
 *   per-address cap here: per-client connection limits belong to the proxy (nginx limit_conn).
 */
export function applyServerLimits(server: Server, env: Env): void {
  server.headersTimeout = env.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS);
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = env.HTTP_MAX_CONNECTIONS;
  server.setTimeout(env.HTTP_IDLE_TIMEOUT_MS);
  const exchanges = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => exchanges.set(req.socket, { req, res }));
  // a listener replaces Node's own close of a timed-out socket; the timer starts again with the response's first write
  server.on("timeout", (socket: Socket) => {
    const at = exchanges.get(socket);
    if (at?.req.complete && !at.res.headersSent) return;
    socket.destroy();
  });

  const perAddress = new Map<string, number>();
  const perAddressCap = env.TRUSTED_PROXY_HOPS > 0 ? Number.POSITIVE_INFINITY : env.HTTP_MAX_CONNECTIONS_PER_IP;
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "";
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > perAddressCap) {
      socket.destroy();
      return;
    }
    perAddress.set(address, open);
    socket.once("close", () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
}

/** Options that must be given when the server is created. */
export const SERVER_OPTIONS = { maxHeaderSize: MAX_HEADER_SIZE, connectionsCheckingInterval: 1_000 } as const;
