import net from "node:net";
import { expect, test } from "@playwright/test";
import { writeRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { E2E_PORT } from "../e2e/config";
import { makeSchool, sessionCookieFor } from "../e2e/db";
import { AppInstance } from "../e2e/instance";
import { citySchools, rosterSet } from "../support/roster-fixture";
import { overlappingBomb } from "../support/zip-craft";

/**
 * A manager's uploads (the roster import, the rollover's set) as a way to stop everyone else's
 * work: a zip bomb, a large valid set and a body trickled byte by byte, posted to a production
 * server of its own while /healthz is asked every 100 ms, as a student's page would be.
 */
const app = new AppInstance(E2E_PORT + 67);

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await app.start();
});
test.afterAll(() => app.stop());

/** Asks /healthz every 100 ms until stopped: the longest answer, and how many were answered. */
function pollHealth() {
  let longest = 0;
  let answered = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${app.url}/healthz`).catch(() => null);
      longest = Math.max(longest, performance.now() - started);
      if (res?.ok) answered++;
      await res?.text().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { longest, answered };
  };
}

async function managerCookie() {
  const { manager } = await makeSchool(0);
  return sessionCookieFor(manager.id, "manager");
}

/** A dry run of the roster import: a zip as the body, or a form of CSV files (its own content type). */
function postSet(cookie: string, body: Uint8Array<ArrayBuffer> | FormData) {
  const headers: Record<string, string> =
    body instanceof FormData ? { cookie } : { cookie, "content-type": "application/zip" };
  return fetch(`${app.url}/api/v1/roster/import`, { method: "POST", headers, body });
}

test("a zip bomb of entries sharing one deflate stream is refused while /healthz keeps answering", async () => {
  test.setTimeout(120_000);
  const cookie = await managerCookie();
  // 100 entries, each declaring 100 bytes, all pointing at one stream of 256 MiB: 25 GiB to inflate
  const bomb = overlappingBomb(100, 256 * 1024 * 1024);
  expect(bomb.byteLength).toBeLessThan(1024 * 1024);
  const health = pollHealth();
  const res = await postSet(cookie, bomb);
  const { longest, answered } = await health();
  expect(res.status).toBe(200);
  const body = (await res.json()) as { problems: { code: string }[]; applied: boolean };
  expect(body.problems.map((p) => p.code)).toEqual(["zipInvalid"]);
  expect(body.applied).toBe(false);
  expect(answered).toBeGreaterThan(0);
  expect(longest).toBeLessThan(2000);
});

test("a large valid set is checked while /healthz keeps answering", async () => {
  test.setTimeout(240_000);
  const cookie = await managerCookie();
  // 40 中学校 of 25 homerooms of 40: 41,000 people, an 11 MB users.csv
  const files = writeRosterPackage(rosterSet(citySchools(40)));
  const form = new FormData();
  for (const [name, bytes] of Object.entries(files))
    form.append("files", new Blob([new Uint8Array(bytes)], { type: "text/csv" }), name);
  // making the set kept this process busy for seconds: let it see the kept-alive sockets the server closed meanwhile
  await new Promise((r) => setTimeout(r, 200));
  const health = pollHealth();
  const res = await postSet(cookie, form);
  const body = (await res.json()) as { schools: unknown[]; problems: unknown[] };
  const { longest, answered } = await health();
  expect(res.status).toBe(200);
  expect(body.problems).toEqual([]);
  expect(body.schools).toHaveLength(40);
  expect(answered).toBeGreaterThan(5);
  expect(longest).toBeLessThan(2000);
});

test("a manager trickling an upload byte by byte holds no slot: another academy's import is answered, not 429", async () => {
  test.setTimeout(120_000);
  const slow = await managerCookie();
  const other = await managerCookie();
  const socket = net.connect({ host: "127.0.0.1", port: app.port });
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.on("error", () => undefined);
  socket.write(
    `POST /api/v1/roster/import HTTP/1.1\r\nHost: localhost:${app.port}\r\nCookie: ${slow}\r\nContent-Type: application/zip\r\nContent-Length: 100000\r\n\r\nPK`,
  );
  const trickle = setInterval(() => socket.write("x"), 200);
  try {
    // the trickling request has reached the route (its session was read) before the other is sent
    await new Promise((r) => setTimeout(r, 3000));
    const files = writeRosterPackage(rosterSet(citySchools(1, 3, 5)));
    const form = new FormData();
    for (const [name, bytes] of Object.entries(files)) form.append("files", new Blob([new Uint8Array(bytes)]), name);
    for (const cookie of [other, slow]) {
      const res = await postSet(cookie, form);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { problems: unknown[] }).problems).toEqual([]);
    }
    expect(socket.destroyed).toBe(false);
  } finally {
    clearInterval(trickle);
    socket.destroy();
  }
});
