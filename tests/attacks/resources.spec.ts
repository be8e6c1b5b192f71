import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../e2e/config";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { e2eDb, makeSchool, sessionCookieFor, signinCodeKey } from "../e2e/db";
import { AppInstance } from "../e2e/instance";

/**
 * Resource exhaustion below and at the HTTP layer, over raw sockets, against a production server
 * started with small limits (so that each attack takes seconds): slow and idle clients, and more
 * event streams than a user or the server may hold.
 */
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: "2000",
  HTTP_REQUEST_TIMEOUT_MS: "4000",
  HTTP_MAX_CONNECTIONS_PER_IP: "40",
  LIVE_STREAMS_PER_USER: "2",
  LIVE_STREAMS_MAX: "4",
};
const app = new AppInstance(E2E_PORT + 71, undefined, LIMITS);

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await app.start();
});
test.afterAll(() => app.stop());

/** A socket to the instance (from `localAddress`, another loopback address standing for another client). */
function connect(localAddress?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: app.port, localAddress }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Milliseconds until the server closes `socket` (rejects after `limit`); what it sent meanwhile. */
function closedWithin(socket: net.Socket, limit: number): Promise<{ ms: number; received: string }> {
  const started = Date.now();
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    if (socket.closed) return resolve({ ms: 0, received });
    const timer = setTimeout(() => reject(new Error(`still open after ${limit} ms`)), limit);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ ms: Date.now() - started, received });
    });
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function dribble(socket: net.Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
  }, everyMs);
  socket.once("close", () => clearInterval(timer));
}

test("slowloris: headers dribbled byte by byte are cut off within the header timeout", async () => {
  const socket = await connect();
  const closed = closedWithin(socket, 15_000);
  socket.write("GET /signin HTTP/1.1\r\nHost: localhost\r\n");
  dribble(socket, "X-Slow: ".padEnd(10_000, "a"), 100);
  const { ms } = await closed;
  expect(ms).toBeLessThan(2000 + 3000);
});

test("slow body: a request whose body trickles in is cut off within the request timeout", async () => {
  const socket = await connect();
  const closed = closedWithin(socket, 20_000);
  socket.write(
    `POST /api/v1/answers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n`,
  );
  dribble(socket, "{".padEnd(5000, " "), 100);
  const { ms, received } = await closed;
  expect(ms).toBeLessThan(4000 + 3000);
  // node answers 408 when it can, or just closes; never a server error
  expect(received).not.toMatch(/^HTTP\/1\.1 5/);
});

test("idle sockets: hundreds of silent connections from one address are capped and reaped, and others are still served", async () => {
  test.setTimeout(60_000);
  const attacker = "127.0.0.2";
  const sockets: net.Socket[] = [];
  for (let i = 0; i < 200; i++) sockets.push(await connect(attacker));
  const closings = sockets.map((s) => closedWithin(s, 20_000).catch(() => null));
  try {
    // another client is served at once
    const res = await fetch(`${app.url}/signin`);
    expect(res.status).toBe(200);
    // beyond the per-address cap the sockets are closed at once
    await expect
      .poll(() => sockets.filter((s) => !s.destroyed && !s.closed).length, { timeout: 5_000 })
      .toBeLessThanOrEqual(40);
    // and the rest within the header timeout (nothing was ever sent on them)
    const results = await Promise.all(closings);
    expect(results.filter((r) => r === null)).toHaveLength(0);
    expect(Math.max(...results.map((r) => r!.ms))).toBeLessThan(2000 + 4000);
  } finally {
    for (const s of sockets) s.destroy();
  }
});

const cookieFor = sessionCookieFor;

/** Opens the student's school event stream; a stream that opened is read until its first event. */
async function openStream(cookie: string) {
  const abort = new AbortController();
  const res = await fetch(`${app.url}/api/v1/live/school/events`, { headers: { cookie }, signal: abort.signal });
  if (res.status === 200) {
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("event: state")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
  }
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: res.status === 200 ? null : await res.text(),
    close: () => abort.abort(),
  };
}

test("event streams: over the per-user and per-server caps a clear retry status, while the others keep streaming", async () => {
  test.setTimeout(60_000);
  const { students } = await makeSchool(4);
  const [a, b, c, d] = await Promise.all(students.map((s) => cookieFor(s.id)));
  const open = [];
  try {
    // a student with two tabs: both stream; a third is refused for a while
    open.push(await openStream(a!), await openStream(a!));
    expect(open.map((s) => s.status)).toEqual([200, 200]);
    const third = await openStream(a!);
    expect(third.status).toBe(429);
    expect(Number(third.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(third.body!)).toEqual({ ok: false, code: "RATE_LIMITED" });
    // others still stream, up to the server's cap; beyond it: 503 with Retry-After
    open.push(await openStream(b!), await openStream(c!));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const full = await openStream(d!);
    expect(full.status).toBe(503);
    expect(Number(full.retryAfter)).toBeGreaterThan(0);
    // a closed stream frees its place
    open.shift()!.close();
    await expect
      .poll(
        async () => {
          const again = await openStream(d!);
          if (again.status === 200) open.push(again);
          return again.status;
        },
        { timeout: 15_000 },
      )
      .toBe(200);
  } finally {
    for (const s of open) s.close();
  }
});

/** POST /api/v1/answers without a session on a connection of its own: the server's quickest answer (401). */
function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${app.url}/api/v1/answers`,
      { method: "POST", agent: false, headers: { "Content-Type": "application/json", Origin: app.url } },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.once("error", reject);
    req.end("{}");
  });
}

/**
 * The teacher's print (POST /api/students/sheets for 1年1組) on a connection of its own, as the probes: what is
 * measured is the print, never whether a keep-alive connection left by an earlier test outlives this instance's
 * two-second header timeout.
 */
function printSheets(cookie: string): Promise<{ status: number; type: string | undefined; bytes: number }> {
  const body = new URLSearchParams({ class: "1:1" }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${app.url}/api/students/sheets`,
      {
        method: "POST",
        agent: false,
        headers: {
          cookie,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.once("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], bytes }));
        res.once("error", reject);
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

test("pdf: printing 1,000 sign-in cards leaves the server answering other requests meanwhile", async () => {
  test.setTimeout(180_000);
  const { school, teacher } = await makeSchool(0);
  const ids = Array.from({ length: 1000 }, () => crypto.randomUUID());
  await e2eDb().user.createMany({
    data: ids.map((id, n) => ({
      id,
      role: "student" as const,
      groupType: "school" as const,
      schoolId: school.id,
      name: `印刷 花子${n}`,
    })),
  });
  await e2eDb().studentDetail.createMany({
    data: ids.map((userId, n) => ({
      userId,
      grade: 1,
      className: "1",
      number: n + 1,
      counterbalanceGroup: n % 2 ? "A" : "B",
    })),
  });
  const key = signinCodeKey();
  await e2eDb().signinCode.createMany({
    data: ids.map((userId) => ({ userId, ...sealNewCode(key), code: undefined })),
  });
  const cookie = await cookieFor(teacher.id, "teacher");

  // a request the server answers by itself at once (no session: 401), twenty times a second while the PDF renders, as
  // a class's requests come: back to back, the probes alone kept the server's thread busy and left the renderer (at
  // the lowest CPU priority) the leftovers of a machine the other worker's tests also kept busy
  const started = Date.now();
  let done = false;
  const print = printSheets(cookie);
  void print.finally(() => (done = true));
  const waits: number[] = [];
  while (!done) {
    const t = Date.now();
    expect(await probe()).toBe(401);
    waits.push(Date.now() - t);
    await sleep(50);
  }
  const pdf = await print;
  const took = Date.now() - started;
  expect(pdf).toMatchObject({ status: 200, type: "application/pdf" });
  expect(pdf.bytes).toBeGreaterThan(100_000);
  // rendering on the server's own thread blocks it for most of the print; off it, a probe waits a moment at most
  const longest = Math.max(...waits);
  console.log(`pdf: ${took} ms, ${waits.length} probes, longest wait ${longest} ms`);
  expect(longest).toBeLessThan(Math.max(1_000, took / 4));
});
