import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "@/platform/env";
import { applyServerLimits, SERVER_OPTIONS } from "../limits";

const required = {
  DATABASE_URL: "postgresql://u:p@localhost:5432/db",
  AUTH_SECRET: "x".repeat(32),
  SIGNIN_CODE_KEY: "ab".repeat(32),
};

/** A real server on loopback with the production limits, answering "ok". */
async function serve(vars: Record<string, string>) {
  const server = http.createServer(SERVER_OPTIONS, (_req, res) => res.end("ok"));
  applyServerLimits(server, parseEnv({ ...required, ...vars }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** Opens `n` silent sockets and waits for each to connect. */
async function openSockets(port: number, n: number) {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(port, "127.0.0.1", () => resolve(s));
          s.once("error", reject);
        }),
    ),
  );
}

/**
 * Whether a plain GET from the same address is still answered: one raw socket, one request, the
 * body if an answer came, "refused" if the server closed it without one. (fetch is not used: its
 * client retries a request whose fresh socket closed before the request was written, on a new
 * socket, which this server closes again: an endless loop when the close wins that race.)
 */
async function answered(port: number) {
  return new Promise<string>((resolve) => {
    let received = "";
    const s = net.connect(port, "127.0.0.1", () =>
      s.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    );
    s.setEncoding("utf8");
    s.on("data", (chunk: string) => (received += chunk));
    s.on("error", () => undefined);
    s.on("close", () => resolve(received === "" ? "refused" : received.slice(received.indexOf("\r\n\r\n") + 4)));
  });
}

let server: http.Server | undefined;
let sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe("connections per address", () => {
  it("served directly, one address gets at most HTTP_MAX_CONNECTIONS_PER_IP sockets", async () => {
    server = await serve({ HTTP_MAX_CONNECTIONS_PER_IP: "4" });
    const port = (server.address() as net.AddressInfo).port;
    sockets = await openSockets(port, 4);
    expect(await answered(port)).toBe("refused");
  });

  it("behind trusted proxies every socket comes from the proxy: no per-address cap", async () => {
    server = await serve({ HTTP_MAX_CONNECTIONS_PER_IP: "4", TRUSTED_PROXY_HOPS: "1" });
    const port = (server.address() as net.AddressInfo).port;
    sockets = await openSockets(port, 4);
    expect(await answered(port)).toBe("ok");
  });
});
