/**
 * The teacher's "next scene" (and a game's leaderboard, …/game) has two servers: the production server's
 * endpoint (features/play/server/advance-endpoint.ts, in front of Next.js: fifty teachers
 * pressing at once must not queue behind Next's own request handling) and
 * the Next.js route handler (`next dev`), which runs the server action
 * goToSceneAction (setGameViewAction). The same requests must get the same answers from both —
 * origin check, input errors, who may, which school, which session — and
 * have the same effects (the move, the audit entry, the notification, an
 * idle staff session ended).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { Writable } from "node:stream";
import { db } from "@/platform/db";
import { createLogger } from "@/platform/ops/log";
import { advanceRoute, gameViewRoute } from "@/features/play/server/routes";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { type PostCase, postToEndpoint, replyOf, routeRequest } from "../../../tests/support/helpers";
import { advanceEndpointListened } from "../../../tests/support/advance-helpers";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { twoSchools } from "../../../tests/support/two-schools";

/** The process's logger (platform/ops/log.ts keeps it on globalThis) replaced by one that keeps its lines. */
const lines: Record<string, unknown>[] = [];
(globalThis as { manabiyaLog?: unknown }).manabiyaLog = createLogger(
  "debug",
  new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

const HOST = "school.example";
let served: Awaited<ReturnType<typeof advanceEndpointListened>>;
let port: number;
const ids = {} as {
  school: string;
  other: string;
  teacher: string;
  otherTeacher: string;
  student: string;
  disabled: string;
  manager: string;
  activity: string;
  scenes: string[];
  idle: string;
  foreignScene: string;
  notStarted: string;
  notStartedScene: string;
  game: string;
};

beforeAll(async () => {
  const { tag, academy, school, other } = await twoSchools();
  const user = async (
    role: "teacher" | "student" | "manager",
    n: string,
    extra: { schoolId?: string; disabled?: boolean } = {},
  ) =>
    (
      await createUser(db(), {
        role,
        email: `${n}-${tag}@t.example`,
        schoolId: extra.schoolId ?? school.id,
        academyId: academy.id,
        disabled: extra.disabled,
        ...(role === "student" ? { student: { grade: 1, className: "1", number: 1 } } : {}),
      })
    ).id;
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const game = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const notStarted = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const scenesOf = async (activityId: string) =>
    (
      await db().activityScene.findMany({ where: { activityId }, orderBy: { position: "asc" }, select: { id: true } })
    ).map((s) => s.id);
  const scenes = await scenesOf(activity.id);
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    teacher: await user("teacher", "t"),
    otherTeacher: await user("teacher", "o", { schoolId: other.id }),
    student: await user("student", "s"),
    disabled: await user("teacher", "d", { disabled: true }),
    manager: await user("manager", "m"),
    activity: activity.id,
    scenes,
    foreignScene: (await scenesOf(notStarted.id))[1]!,
    notStarted: notStarted.id,
    notStartedScene: (await scenesOf(notStarted.id))[1]!,
    game: game.id,
  });
  await db().guideSession.create({
    data: { activityId: activity.id, startedById: ids.teacher, currentSceneId: scenes[0]! },
  });
  await db().guideSession.create({
    data: { activityId: game.id, startedById: ids.teacher, currentSceneId: (await scenesOf(game.id))[0]!, game: true },
  });

  served = await advanceEndpointListened();
  port = served.port;
});
afterAll(async () => {
  await served?.close();
  await db().$disconnect();
});

type Who = "nobody" | "teacher" | "otherTeacher" | "student" | "disabled" | "manager" | "stale" | { idle: string };
interface Case extends PostCase {
  who: Who;
  activityId?: string;
  /** POST …/game (a game's view) instead of …/scene */
  game?: boolean;
}

async function cookieOf(who: Who) {
  if (who === "nobody") return "";
  const [sub, role, sv] =
    typeof who === "object"
      ? [who.idle, "teacher", 0]
      : who === "stale"
        ? [ids.teacher, "teacher", 7]
        : [ids[who], who === "otherTeacher" || who === "disabled" ? "teacher" : who, 0];
  return sessionCookieOf(sub, role, sv);
}
const pathOf = (c: Case) =>
  `/api/v1/live/${c.activityId ?? (c.game ? ids.game : ids.activity)}/${c.game ? "game" : "scene"}`;

async function viaEndpoint(c: Case) {
  return postToEndpoint(port, HOST, pathOf(c), await cookieOf(c.who), c);
}

async function viaRoute(c: Case) {
  session.cookie = await cookieOf(c.who);
  const request = routeRequest(HOST, pathOf(c), session.cookie, c);
  return replyOf(
    await (c.game
      ? gameViewRoute(request, c.activityId ?? ids.game)
      : advanceRoute(request, c.activityId ?? ids.activity)),
  );
}

const to = (sceneId: string, extra: Record<string, unknown> = {}) => JSON.stringify({ sceneId, ...extra });
const current = async () =>
  await db().guideSession.findFirstOrThrow({
    where: { activityId: ids.activity, endedAt: null },
    select: { currentSceneId: true, version: true },
  });

describe("the production advance endpoint and the route handler (the server action) answer alike", () => {
  const cases: [string, () => Case, number, string][] = [
    ["signed out", () => ({ who: "nobody", body: to(ids.scenes[1]!) }), 401, "UNAUTHENTICATED"],
    ["Origin: null", () => ({ who: "teacher", body: to(ids.scenes[1]!), origin: "null" }), 403, "FORBIDDEN"],
    [
      "another site's Origin",
      () => ({ who: "teacher", body: to(ids.scenes[1]!), origin: "https://evil.example" }),
      403,
      "FORBIDDEN",
    ],
    ["not JSON", () => ({ who: "teacher", body: "{nope" }), 400, "VALIDATION"],
    ["a scene id that is not one", () => ({ who: "teacher", body: to("nope") }), 400, "VALIDATION"],
    [
      "an activity id that is not one",
      () => ({ who: "teacher", body: to(ids.scenes[1]!), activityId: "nope" }),
      400,
      "VALIDATION",
    ],
    ["a student", () => ({ who: "student", body: to(ids.scenes[1]!) }), 403, "FORBIDDEN"],
    ["a disabled teacher", () => ({ who: "disabled", body: to(ids.scenes[1]!) }), 401, "UNAUTHENTICATED"],
    [
      "a session ended since (another session version)",
      () => ({ who: "stale", body: to(ids.scenes[1]!) }),
      401,
      "UNAUTHENTICATED",
    ],
    ["a teacher of another school", () => ({ who: "otherTeacher", body: to(ids.scenes[1]!) }), 409, "CONFLICT"],
    [
      "a teacher naming another school",
      () => ({ who: "teacher", body: to(ids.scenes[1]!, { schoolId: ids.other }) }),
      403,
      "FORBIDDEN",
    ],
    ["a manager naming no school", () => ({ who: "manager", body: to(ids.scenes[1]!) }), 403, "FORBIDDEN"],
    ["a scene of another activity", () => ({ who: "teacher", body: to(ids.foreignScene) }), 400, "VALIDATION"],
    [
      "an activity without a running session",
      () => ({ who: "teacher", body: to(ids.notStartedScene), activityId: ids.notStarted }),
      409,
      "CONFLICT",
    ],
  ];
  for (const [name, make, status, code] of cases) {
    it(`${name}: ${status} ${code}, nothing moved`, async () => {
      const before = await current();
      const c = make();
      const [a, b] = [await viaEndpoint(c), await viaRoute(c)];
      expect(a.status).toBe(status);
      expect(b.status).toBe(status);
      expect(a.body).toMatchObject({ ok: false, code });
      expect(a.body).toEqual(b.body);
      expect(a.headers.get("cache-control")).toBe("no-store");
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await current()).toEqual(before);
    });
  }

  it("the teacher (and a manager naming the school) move the class: the same reply, the move, its audit entry and a notification from both", async () => {
    const audits = () => db().auditLog.count({ where: { action: "guide.scene", targetId: ids.activity } });
    const [auditsBefore, { version }] = [await audits(), await current()];
    served.notified.length = 0;
    const a = await viaEndpoint({ who: "teacher", body: to(ids.scenes[1]!) });
    expect(a).toMatchObject({ status: 200, body: { ok: true, data: null } });
    expect(await current()).toEqual({ currentSceneId: ids.scenes[1], version: version + 1 });
    const b = await viaRoute({ who: "manager", body: to(ids.scenes[2]!, { schoolId: ids.school }) });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await current()).toEqual({ currentSceneId: ids.scenes[2], version: version + 2 });
    const c = await viaEndpoint({ who: "manager", body: to(ids.scenes[0]!, { schoolId: ids.school }) });
    expect(c.body).toEqual(a.body);
    expect(await audits()).toBe(auditsBefore + 3);
    const payload = JSON.stringify({ topic: `activity:${ids.activity}`, kind: "state" });
    await expect.poll(() => served.notified.filter((n) => n === payload).length, { timeout: 10_000 }).toBe(3);
  });

  it("both record the staff member's last use (refused by scope or not), as every signed-in request does", async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000);
    const lastUse = async () =>
      (
        await db().user.findUniqueOrThrow({ where: { id: ids.teacher }, select: { lastActiveAt: true } })
      ).lastActiveAt!.getTime();
    for (const via of [viaEndpoint, viaRoute]) {
      await db().user.update({ where: { id: ids.teacher }, data: { lastActiveAt: fiveMinutesAgo } });
      expect((await via({ who: "teacher", body: to(ids.scenes[1]!, { schoolId: ids.other }) })).status).toBe(403);
      expect(await lastUse()).toBeGreaterThan(fiveMinutesAgo.getTime() + 60_000);
    }
  });

  it("a teacher idle past the limit: signed out by both, every session of theirs ended", async () => {
    const idleTeacher = async () => {
      const { id } = await createUser(db(), {
        role: "teacher",
        email: `i-${uniqueTag()}@t.example`,
        schoolId: ids.school,
      });
      await db().user.update({ where: { id }, data: { lastActiveAt: new Date(Date.now() - 3 * 3600_000) } });
      return id;
    };
    const [one, two] = [await idleTeacher(), await idleTeacher()];
    const a = await viaEndpoint({ who: { idle: one }, body: to(ids.scenes[1]!) });
    const b = await viaRoute({ who: { idle: two }, body: to(ids.scenes[1]!) });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual(b.body);
    const versions = await db().user.findMany({ where: { id: { in: [one, two] } }, select: { sessionVersion: true } });
    expect(versions.map((v) => v.sessionVersion)).toEqual([1, 1]);
  });
});

describe("…/game: the production endpoint and the route handler (setGameViewAction) answer alike", () => {
  const show = (extra: Record<string, unknown> = {}) => JSON.stringify({ board: "ranking", ...extra });
  const gameNow = async () =>
    await db().guideSession.findFirstOrThrow({
      where: { activityId: ids.game, endedAt: null },
      select: { gameBoard: true, gameNames: true, version: true },
    });
  const cases: [string, () => Case, number, string][] = [
    ["signed out", () => ({ who: "nobody", game: true, body: show() }), 401, "UNAUTHENTICATED"],
    ["Origin: null", () => ({ who: "teacher", game: true, body: show(), origin: "null" }), 403, "FORBIDDEN"],
    [
      "another site's Origin",
      () => ({ who: "teacher", game: true, body: show(), origin: "https://evil.example" }),
      403,
      "FORBIDDEN",
    ],
    ["not JSON", () => ({ who: "teacher", game: true, body: "{nope" }), 400, "VALIDATION"],
    [
      "a board that is not one",
      () => ({ who: "teacher", game: true, body: show({ board: "all" }) }),
      400,
      "VALIDATION",
    ],
    [
      "names that are not a yes or no",
      () => ({ who: "teacher", game: true, body: show({ names: 1 }) }),
      400,
      "VALIDATION",
    ],
    ["a student", () => ({ who: "student", game: true, body: show() }), 403, "FORBIDDEN"],
    ["a disabled teacher", () => ({ who: "disabled", game: true, body: show() }), 401, "UNAUTHENTICATED"],
    ["a session ended since", () => ({ who: "stale", game: true, body: show() }), 401, "UNAUTHENTICATED"],
    ["a teacher of another school", () => ({ who: "otherTeacher", game: true, body: show() }), 409, "CONFLICT"],
    [
      "a teacher naming another school",
      () => ({ who: "teacher", game: true, body: show({ schoolId: ids.other }) }),
      403,
      "FORBIDDEN",
    ],
    ["a manager naming no school", () => ({ who: "manager", game: true, body: show() }), 403, "FORBIDDEN"],
    [
      "a lesson not played as a game",
      () => ({ who: "teacher", game: true, body: show(), activityId: ids.activity }),
      400,
      "VALIDATION",
    ],
    [
      "an activity without a running session",
      () => ({ who: "teacher", game: true, body: show(), activityId: ids.notStarted }),
      409,
      "CONFLICT",
    ],
    [
      "a session that is not the activity's",
      () => ({ who: "teacher", game: true, body: show({ sessionId: "00000000-0000-4000-8000-000000000000" }) }),
      404,
      "NOT_FOUND",
    ],
  ];
  for (const [name, make, status, code] of cases) {
    it(`${name}: ${status} ${code}, nothing changed`, async () => {
      const before = await gameNow();
      const c = make();
      const [a, b] = [await viaEndpoint(c), await viaRoute(c)];
      expect(a.status).toBe(status);
      expect(b.status).toBe(status);
      expect(a.body).toMatchObject({ ok: false, code });
      expect(a.body).toEqual(b.body);
      expect(a.headers.get("cache-control")).toBe("no-store");
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await gameNow()).toEqual(before);
    });
  }

  it("the teacher (and a manager naming the school) show the leaderboard, its names, and the scene again: the same reply, the change, its audit entry, its log line and a notification from both", async () => {
    const audits = () => db().auditLog.count({ where: { action: "guide.game", targetId: ids.game } });
    const [auditsBefore, { version }] = [await audits(), await gameNow()];
    served.notified.length = 0;
    lines.length = 0;
    const a = await viaEndpoint({ who: "teacher", game: true, body: show() });
    expect(a).toMatchObject({ status: 200, body: { ok: true, data: null } });
    expect(await gameNow()).toEqual({ gameBoard: "ranking", gameNames: false, version: version + 1 });
    const b = await viaRoute({
      who: "manager",
      game: true,
      body: JSON.stringify({ names: true, schoolId: ids.school }),
    });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await gameNow()).toEqual({ gameBoard: "ranking", gameNames: true, version: version + 2 });
    const c = await viaEndpoint({
      who: "manager",
      game: true,
      body: JSON.stringify({ board: null, schoolId: ids.school }),
    });
    expect(c.body).toEqual(a.body);
    expect(await gameNow()).toEqual({ gameBoard: null, gameNames: true, version: version + 3 });
    expect(await audits()).toBe(auditsBefore + 3);
    // each press's audit log line, as the server action writes it: by user id, the school, the activity
    const line = (userId: string) =>
      expect.objectContaining({
        msg: "audit",
        userId,
        schoolId: ids.school,
        targetType: "activity",
        targetId: ids.game,
      });
    await expect
      .poll(() => lines.filter((l) => l.event === "guide.game"))
      .toEqual([line(ids.teacher), line(ids.manager), line(ids.manager)]);
    const payload = JSON.stringify({ topic: `activity:${ids.game}`, kind: "state" });
    await expect.poll(() => served.notified.filter((n) => n === payload).length, { timeout: 10_000 }).toBe(3);
  });
});
