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
 * One GET on a raw socket of its own: what arrived, and how long until the server closed it. (fetch is not used: its
 * client retries a request whose fresh socket closed before the request was written, on a new socket, which this
 * server closes again: an endless loop when the close wins that race.)
 */
function rawGet(port: number, path = "/") {
  const started = Date.now();
  return new Promise<{ received: string; ms: number }>((resolve) => {
    let received = "";
    const s = net.connect(port, "127.0.0.1", () =>
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    sockets.push(s);
    s.setEncoding("utf8");
    s.on("data", (chunk: string) => (received += chunk));
    s.on("error", () => undefined);
    s.on("close", () => resolve({ received, ms: Date.now() - started }));
  });
}

/** Whether a plain GET from the same address is still answered: the body if an answer came, "refused" if not. */
async function answered(port: number) {
  const { received } = await rawGet(port);
  return received === "" ? "refused" : received.slice(received.indexOf("\r\n\r\n") + 4);
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

describe("idle sockets", () => {
  /** A server whose handler, once the request has arrived, answers "late" after `delayMs`, or sends its headers and a byte and then nothing. */
  async function slowServer(idleMs: number, delayMs: number) {
    const s = http.createServer(SERVER_OPTIONS, (req, res) => {
      req.resume();
      req.once("end", () =>
        setTimeout(() => {
          if (req.url === "/stall") {
            res.writeHead(200);
            res.write("a");
          } else res.end("late");
        }, delayMs),
      );
    });
    // below the 20 s the environment allows, so that the test takes a moment
    applyServerLimits(s, { ...parseEnv(required), HTTP_IDLE_TIMEOUT_MS: idleMs });
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    return s;
  }

  it("a response the server is still making outlasts the idle timeout: the client gets it", async () => {
    server = await slowServer(300, 1_500);
    const { received } = await rawGet((server.address() as net.AddressInfo).port);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received.endsWith("late")).toBe(true);
  });

  it("a request whose body stopped arriving is closed after the idle timeout, the request timeout being longer", async () => {
    server = await slowServer(300, 0);
    const port = (server.address() as net.AddressInfo).port;
    const started = Date.now();
    const s = net.connect(port, "127.0.0.1", () =>
      s.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nab"),
    );
    sockets.push(s);
    s.on("error", () => undefined);
    await new Promise((resolve) => s.once("close", resolve));
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a response that started and then went silent is closed after the idle timeout", async () => {
    server = await slowServer(300, 1_000);
    const { received, ms } = await rawGet((server.address() as net.AddressInfo).port, "/stall");
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(ms).toBeGreaterThanOrEqual(1_000);
    expect(ms).toBeLessThan(5_000);
  });
});
