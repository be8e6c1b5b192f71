import { randomUUID } from "node:crypto";
import net from "node:net";
import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { E2E_PORT } from "./config";
import { e2eDb, makeSchool, sessionCookieFor } from "./db";
import { AppInstance } from "./instance";

/**
 * A deploy stops an instance with SIGTERM while a class is working: every
 * answer it acknowledged is stored, its open event streams end cleanly (the
 * browsers reconnect to another instance), and it exits by itself within 10 s.
 */
const app = new AppInstance(E2E_PORT + 85);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await app.start();
});
test.afterAll(() => app.stop());

test("operations: SIGTERM mid-class ends the event streams, stores every acknowledged answer, and exits cleanly within 10 s", async () => {
  test.setTimeout(120_000);
  const { school, students } = await makeSchool(12);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scenes = await e2eDb().activityScene.findMany({
    where: { activityId: activity.id },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  const cookies = await Promise.all(students.map((s) => sessionCookieFor(s.id)));

  // four students follow the live state: their streams are open when the signal comes
  const streams = await Promise.all(
    cookies.slice(0, 4).map(async (cookie) => {
      const res = await fetch(`${app.url}/api/v1/live/${activity.id}/events`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = "";
      while (!text.includes("event: state")) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended before its first state: ${text.slice(-200)}`);
        text += new TextDecoder().decode(value);
      }
      // read to the end: a clean end is `done`, a reset is an error (wrapped: an async function returning a promise would wait for it)
      return {
        end: (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return { ended: "cleanly", text: text + "" };
            text += new TextDecoder().decode(value);
          }
        })().catch((error: unknown) => ({ ended: `broken: ${String(error)}`, text })),
      };
    }),
  );
  // everyone answers at the bell; the signal arrives while their saves are in flight
  const saves = cookies.slice(0, 11).map((cookie, i) =>
    fetch(`${app.url}/api/v1/answers`, {
      method: "POST",
      headers: { cookie, origin: app.url, "content-type": "application/json" },
      body: JSON.stringify({
        activityId: activity.id,
        sceneId: scenes[2]!.id,
        answer: { choice: "clear" },
        clientRevision: 1,
        idempotencyKey: `shutdown-${i}-${randomUUID().slice(0, 8)}`,
        mode: "self",
        respondentId: students[i]!.id,
      }),
    }).then(
      async (res) => ({ status: res.status, ok: ((await res.json()) as { ok?: boolean }).ok === true }),
      () => ({ status: 0, ok: false }),
    ),
  );
  // one student on a slow network: half the request is sent before the signal, the rest after it
  const slowBody = JSON.stringify({
    activityId: activity.id,
    sceneId: scenes[2]!.id,
    answer: { choice: "cloudy" },
    clientRevision: 1,
    idempotencyKey: `shutdown-slow-${randomUUID().slice(0, 8)}`,
    mode: "self",
    respondentId: students[11]!.id,
  });
  // a raw socket, so the test knows when it is connected and controls every byte
  const slow = net.connect(Number(new URL(app.url).port), "127.0.0.1");
  await new Promise<void>((resolve, reject) => slow.once("connect", resolve).once("error", reject));
  let raw = "";
  slow.on("data", (d: Buffer) => (raw += d.toString()));
  const slowReply = new Promise<{ status: number; body: string }>((resolve) => {
    const done = () => {
      const reply = raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0),
        body: reply.slice(reply.indexOf("\r\n\r\n") + 4),
      });
    };
    slow.once("end", done).once("close", done).once("error", done);
  });
  slow.write(
    `POST /api/v1/answers HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\nCookie: ${cookies[11]!}\r\nOrigin: ${app.url}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(slowBody)}\r\nConnection: close\r\n` +
      // Node answers 100 Continue once it has read the headers: from then on the request is in progress
      `Expect: 100-continue\r\n\r\n`,
  );
  slow.write(slowBody.slice(0, 40));
  await Promise.race(saves); // the server is busy with the class's saves
  await expect.poll(() => raw, { timeout: 30_000 }).toContain("100 Continue"); // and has taken the slow request's headers
  const stopped = app.stop();
  await new Promise((r) => setTimeout(r, 300));
  slow.write(slowBody.slice(40));
  const [exit, results, ended, late] = await Promise.all([
    stopped,
    Promise.all(saves),
    Promise.all(streams.map((st) => st.end)),
    slowReply,
  ]);

  // the request that was in progress when the signal came was finished and stored
  expect(late).toMatchObject({ status: 200, body: expect.stringContaining('"ok":true') });
  expect(await e2eDb().response.count({ where: { userId: students[11]!.id, sceneId: scenes[2]!.id } })).toBe(1);

  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(exit!.ms).toBeLessThan(10_000);
  // each stream ended by the server, with a short reconnect delay for the browser
  for (const stream of ended)
    expect(stream).toMatchObject({ ended: "cleanly", text: expect.stringContaining("retry: 1000") });
  // no save failed with a server error: it was stored (200) or never reached a closing server (0: the device retries)
  expect(results.filter((r) => r.status !== 200 && r.status !== 0)).toEqual([]);
  const acknowledged = students
    .slice(0, 11)
    .filter((_, i) => results[i]!.ok)
    .map((s) => s.id);
  expect(acknowledged.length).toBeGreaterThan(0);
  const stored = await e2eDb().response.findMany({
    where: { activityId: activity.id, sceneId: scenes[2]!.id },
    select: { userId: true },
  });
  expect(stored.map((r) => r.userId).sort()).toEqual(expect.arrayContaining(acknowledged.sort()));
});
