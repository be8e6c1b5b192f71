/**
 * A student's live event stream has two servers: the production server's
 * endpoint (features/play/server/stream-endpoint.ts, in front of Next.js: 2,000 streams
 * written through Next's response pipeline cost more than the writes) and the
 * route handler (`next dev`, liveEvents in features/play/server/routes.ts). The same
 * requests must get the same answers from both — who may, which activity, the
 * caps — and the same stream: headers, the first state, every move, presence,
 * and the reconnect at shutdown.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import { env } from "@/platform/env";
import { MOVE_SQL, moveParams } from "@/features/play/shared/advance";
import { liveEvents } from "@/features/play/server/routes";
import { createStreamEndpoint, EVENTS_PATH } from "@/features/play/server/stream-endpoint";
import { runShutdownHooks } from "@/platform/shutdown";
import { LIVE_CHANNEL, livePayload } from "@/platform/notify/channel";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { testDatabaseUrl } from "../../../tests/support/helpers";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { twoSchools } from "../../../tests/support/two-schools";

let server: http.Server;
let endpoint: ReturnType<typeof createStreamEndpoint>;
let port: number;
const ids = {} as {
  school: string;
  teacher: string;
  students: string[];
  disabled: string;
  foreign: string;
  activity: string;
  otherActivity: string;
  scenes: string[];
};

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const student = async (n: number, schoolId = school.id, disabled = false) =>
    (
      await createUser(db(), {
        role: "student",
        email: `s${n}-${tag}@t.example`,
        schoolId,
        disabled,
        student: { grade: 1, className: "1", number: n },
      })
    ).id;
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const otherActivity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: other.id,
    mode: "guide",
  });
  const scenes = (
    await db().activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).map((s) => s.id);
  const teacher = (await createUser(db(), { role: "teacher", email: `t-${tag}@t.example`, schoolId: school.id })).id;
  await db().guideSession.create({
    data: { activityId: activity.id, startedById: teacher, currentSceneId: scenes[0]! },
  });
  Object.assign(ids, {
    school: school.id,
    teacher,
    students: [await student(1), await student(2), await student(3)],
    disabled: await student(4, school.id, true),
    foreign: await student(5, other.id),
    activity: activity.id,
    otherActivity: otherActivity.id,
    scenes,
  });
  endpoint = createStreamEndpoint({
    databaseUrl: testDatabaseUrl(),
    authSecret: process.env.AUTH_SECRET!,
    production: true,
    poolSize: 2,
    limits: { perUser: env().LIVE_STREAMS_PER_USER, max: env().LIVE_STREAMS_MAX },
  });
  server = http.createServer(
    (req, res) => void endpoint.handle(req, res, () => res.writeHead(299, { "x-left-to": "next" }).end()),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await endpoint?.close();
  await db().$disconnect();
});

const cookieOf = (sub: string, role = "student", sv = 0) => sessionCookieOf(sub, role, sv);

/** A stream's text as it arrives, and its end. */
function follow(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const got = { text: "", ended: false, stop: () => void reader.cancel().catch(() => undefined) };
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      got.text += decoder.decode(value, { stream: true });
    }
    got.ended = true;
  })();
  return got;
}
const states = (text: string) =>
  [...text.matchAll(/event: state\ndata: (.*)\n\n/g)].map(
    (m) => JSON.parse(m[1]!) as { sceneId: string; version: number },
  );

async function viaEndpoint(cookie: string, activityId = ids.activity) {
  const aborter = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/live/${activityId}/events`, {
    headers: { cookie },
    signal: aborter.signal,
  });
  return { res, abort: () => aborter.abort() };
}
async function viaRoute(cookie: string, activityId = ids.activity) {
  session.cookie = cookie;
  const aborter = new AbortController();
  const res = await liveEvents(
    new NextRequest(`http://localhost/api/v1/live/${activityId}/events`, {
      headers: { cookie },
      signal: aborter.signal,
    }),
    activityId,
  );
  return { res, abort: () => aborter.abort() };
}
/** Connected: seen within the presence window (a student who left stays in the table as "was here", seen at the epoch). */
const presence = async (userId: string) =>
  db().guidePresence.count({
    where: {
      userId,
      seenAt: { gt: new Date(Date.now() - 35_000) },
      session: { activityId: ids.activity, endedAt: null },
    },
  });

describe("a student's live stream from the production endpoint and from the route handler", () => {
  const refusals: [string, () => Promise<[string, string?]>, number, string][] = [
    ["a disabled student", async () => [await cookieOf(ids.disabled)], 401, "UNAUTHENTICATED"],
    [
      "a session ended since (another session version)",
      async () => [await cookieOf(ids.students[0]!, "student", 3)],
      401,
      "UNAUTHENTICATED",
    ],
    ["another school's activity", async () => [await cookieOf(ids.students[0]!), ids.otherActivity], 404, "NOT_FOUND"],
    ["a student of another school", async () => [await cookieOf(ids.foreign)], 404, "NOT_FOUND"],
    ["an activity id that is not one", async () => [await cookieOf(ids.students[0]!), "nope"], 404, "NOT_FOUND"],
  ];
  for (const [name, make, status, code] of refusals) {
    it(`${name}: ${status} ${code} from both`, async () => {
      const [cookie, activityId] = await make();
      const [a, b] = [await viaEndpoint(cookie, activityId), await viaRoute(cookie, activityId)];
      expect([a.res.status, b.res.status]).toEqual([status, status]);
      const body = await a.res.json();
      expect(body).toEqual(await b.res.json());
      expect(body).toMatchObject({ ok: false, code });
      expect(a.res.headers.get("cache-control")).toBe("no-store");
    });
  }

  it("the school's stream (a student's home) is another route: the production server leaves its path to Next.js", () => {
    expect(EVENTS_PATH.test("/api/v1/live/school/events")).toBe(false);
    expect(EVENTS_PATH.test(`/api/v1/live/${ids.activity}/events`)).toBe(true);
  });

  it("staff and the signed out are left to Next.js (the teacher's stream carries counts and results)", async () => {
    expect((await viaEndpoint(await cookieOf(ids.teacher, "teacher"))).res.headers.get("x-left-to")).toBe("next");
    expect((await viaEndpoint("")).res.headers.get("x-left-to")).toBe("next");
  });

  it("the same stream: headers, the first state, every move in order, presence while open, gone when closed", async () => {
    const [student] = ids.students as [string];
    const cookie = await cookieOf(student);
    const a = await viaEndpoint(cookie);
    const b = await viaRoute(cookie);
    expect([a.res.status, b.res.status]).toEqual([200, 200]);
    for (const header of ["content-type", "cache-control", "x-accel-buffering"])
      expect(a.res.headers.get(header)).toBe(b.res.headers.get(header));
    expect(a.res.headers.get("x-content-type-options")).toBe("nosniff");
    const [fa, fb] = [follow(a.res.body!), follow(b.res.body!)];
    await expect.poll(() => states(fa.text).length + states(fb.text).length, { timeout: 10_000 }).toBe(2);
    expect(fa.text.startsWith(`: ${" ".repeat(2048)}\nretry: 3000\n\n`)).toBe(true);
    expect(fa.text).toBe(fb.text);
    expect(await presence(student)).toBe(1);
    const seen = [ids.scenes[0]!];
    for (const scene of [ids.scenes[1]!, ids.scenes[2]!, ids.scenes[0]!]) {
      await db().$queryRawUnsafe(MOVE_SQL, ...moveParams(ids.school, ids.teacher, ids.activity, scene));
      seen.push(scene);
      await expect
        .poll(
          () =>
            states(fa.text)
              .map((s) => s.sceneId)
              .join(),
          { timeout: 10_000 },
        )
        .toBe(seen.join());
      await expect.poll(() => fb.text, { timeout: 10_000 }).toBe(fa.text);
    }
    const versions = states(fa.text).map((s) => s.version);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    a.abort();
    b.abort();
    await expect.poll(() => presence(student), { timeout: 10_000 }).toBe(0);
  });

  it("on the socket: HTTP/1.1 chunks each exactly the size they say, and an HTTP/1.0 client gets the same events unchunked", async () => {
    const student = ids.students[2]!;
    const cookie = await cookieOf(student);
    const raw = (version: "1.0" | "1.1") => {
      const socket = net.connect(port, "127.0.0.1");
      const got = { bytes: Buffer.alloc(0), close: () => socket.destroy() };
      socket.on("data", (b: Buffer) => (got.bytes = Buffer.concat([got.bytes, b])));
      socket.write(`GET /api/v1/live/${ids.activity}/events HTTP/${version}\r\nHost: x\r\nCookie: ${cookie}\r\n\r\n`);
      return got;
    };
    /** The body of a chunked response, refusing any chunk whose size line is not its length. */
    const unchunk = (body: Buffer) => {
      let text = "";
      for (let rest = body; rest.length > 0;) {
        const line = rest.indexOf("\r\n");
        const size = parseInt(rest.subarray(0, line).toString("latin1"), 16);
        if (rest.length < line + 2 + size + 2) break; // the last chunk still arriving
        expect(rest.subarray(line + 2 + size, line + 4 + size).toString()).toBe("\r\n");
        text += rest.subarray(line + 2, line + 2 + size).toString("utf8");
        rest = rest.subarray(line + 4 + size);
      }
      return text;
    };
    const bodyOf = (got: { bytes: Buffer }) => got.bytes.subarray(got.bytes.indexOf("\r\n\r\n") + 4);
    const [v11, v10] = [raw("1.1"), raw("1.0")];
    await expect.poll(() => states(unchunk(bodyOf(v11))).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => states(bodyOf(v10).toString()).length, { timeout: 10_000 }).toBe(1);
    const scene = ids.scenes[1]!;
    await db().$queryRawUnsafe(MOVE_SQL, ...moveParams(ids.school, ids.teacher, ids.activity, scene));
    await expect.poll(() => states(unchunk(bodyOf(v11))).at(-1)?.sceneId, { timeout: 10_000 }).toBe(scene);
    await expect.poll(() => states(bodyOf(v10).toString()).at(-1)?.sceneId, { timeout: 10_000 }).toBe(scene);
    expect(v11.bytes.toString("latin1")).toMatch(/^HTTP\/1\.1 200[^]*\r\ntransfer-encoding: chunked\r\n/i);
    expect(v10.bytes.toString("latin1")).not.toMatch(/transfer-encoding/i);
    expect(unchunk(bodyOf(v11))).toBe(bodyOf(v10).toString());
    await db().$queryRawUnsafe(MOVE_SQL, ...moveParams(ids.school, ids.teacher, ids.activity, ids.scenes[0]!));
    v11.close();
    v10.close();
  });

  it("the streams of a user are capped alike (429 with Retry-After), whichever server holds them", async () => {
    const cookie = await cookieOf(ids.students[1]!);
    const open = [];
    for (let i = 0; i < env().LIVE_STREAMS_PER_USER; i++)
      open.push(i % 2 ? await viaRoute(cookie) : await viaEndpoint(cookie));
    expect(open.map((o) => o.res.status)).toEqual(open.map(() => 200));
    const [a, b] = [await viaEndpoint(cookie), await viaRoute(cookie)];
    expect([a.res.status, b.res.status]).toEqual([429, 429]);
    expect(a.res.headers.get("retry-after")).toBe(b.res.headers.get("retry-after"));
    expect(await a.res.json()).toEqual(await b.res.json());
    for (const o of open) o.abort();
  });

  it("a stream whose session has ended since (signed out elsewhere) is closed at its next heartbeat by both", async () => {
    const student = (
      await createUser(db(), {
        role: "student",
        email: `hb-${uniqueTag()}@t.example`,
        schoolId: ids.school,
        student: { grade: 1, className: "2", number: 1 },
      })
    ).id;
    const cookie = await cookieOf(student);
    const [a, b] = [await viaEndpoint(cookie), await viaRoute(cookie)];
    const [fa, fb] = [follow(a.res.body!), follow(b.res.body!)];
    await expect.poll(() => states(fa.text).length + states(fb.text).length, { timeout: 10_000 }).toBe(2);
    await db().user.update({ where: { id: student }, data: { sessionVersion: { increment: 1 } } });
    await expect.poll(() => [fa.ended, fb.ended], { timeout: 40_000, interval: 500 }).toEqual([true, true]);
    expect(fa.text).not.toContain("event: ping");
  });

  it("the students of an activity follow it through one fan-out: each still gets their own class's state and presence, and one leaving ends no other", async () => {
    const activity = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: ids.school,
      mode: "guide",
    });
    const [first, second] = (
      await db().activityScene.findMany({
        where: { activityId: activity.id },
        orderBy: { position: "asc" },
        select: { id: true },
      })
    ).map((s) => s.id) as [string, string];
    const inClass = async (className: string, n: number) =>
      (
        await createUser(db(), {
          role: "student",
          email: `fan-${className}-${n}-${uniqueTag()}@t.example`,
          schoolId: ids.school,
          student: { grade: 2, className, number: n },
        })
      ).id;
    const ones = [await inClass("1", 1), await inClass("1", 2), await inClass("1", 3)];
    const twos = [await inClass("2", 1), await inClass("2", 2)];
    const open = await Promise.all(
      [...ones, ...twos].map(async (id) => {
        const stream = await viaEndpoint(await cookieOf(id), activity.id);
        return { id, stream, seen: follow(stream.res.body!) };
      }),
    );
    await expect
      .poll(() => open.map((o) => states(o.seen.text).length), { timeout: 10_000 })
      .toEqual(open.map(() => 1));
    const notify = () =>
      db().$executeRaw`select pg_notify(${LIVE_CHANNEL}, ${livePayload(`activity:${activity.id}`, "state")})`;
    // 2組's lesson starts while every stream is open: only 2組 follows it, and joins it
    const lesson = await db().guideSession.create({
      data: { activityId: activity.id, startedById: ids.teacher, currentSceneId: first, grade: 2, className: "2" },
    });
    await notify();
    const last = (o: (typeof open)[number]) => states(o.seen.text).at(-1);
    const [oneStreams, twoStreams] = [open.slice(0, 3), open.slice(3)];
    await expect.poll(() => twoStreams.map((o) => last(o)?.sceneId), { timeout: 10_000 }).toEqual([first, first]);
    const joined = () =>
      db().guidePresence.count({ where: { sessionId: lesson.id, seenAt: { gt: new Date(Date.now() - 35_000) } } });
    await expect.poll(joined, { timeout: 10_000 }).toBe(2);
    // one of 2組 leaves: the others of the activity go on
    twoStreams[0]!.stream.abort();
    await expect.poll(joined, { timeout: 10_000 }).toBe(1);
    await db().guideSession.update({ where: { id: lesson.id }, data: { currentSceneId: second, version: 2 } });
    await notify();
    await expect.poll(() => last(twoStreams[1]!)?.sceneId, { timeout: 10_000 }).toBe(second);
    // 1組 never saw 2組's lesson: only the waiting screen
    const seenByOnes = oneStreams.flatMap((o) => states(o.seen.text) as { sceneId: string | null; status?: string }[]);
    expect(new Set(seenByOnes.map((s) => `${s.status}:${s.sceneId}`))).toEqual(new Set(["waiting:null"]));
    expect(oneStreams.map((o) => o.seen.ended)).toEqual([false, false, false]);
    for (const o of open) o.stream.abort();
  });

  it("at shutdown the stream tells the browser to reconnect within a second and ends", async () => {
    const a = await viaEndpoint(await cookieOf(ids.students[2]!));
    const fa = follow(a.res.body!);
    await expect.poll(() => states(fa.text).length, { timeout: 10_000 }).toBe(1);
    runShutdownHooks();
    await expect.poll(() => fa.ended, { timeout: 10_000 }).toBe(true);
    expect(fa.text.endsWith("retry: 1000\n\n")).toBe(true);
  });
});
