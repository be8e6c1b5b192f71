/**
 * Fifty teachers press "next" (or show a game's leaderboard) in the same moment: the production advance
 * endpoint (features/play/server/advance-endpoint.ts) moves the presses that arrive
 * together in one statement (features/play/shared/advance-batch.ts), and each teacher
 * still gets exactly the reply, the move, the audit entry and the
 * notification their press alone would get — refusals included, and a
 * class's own presses in the order they came.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { createAdvanceEndpoint } from "@/features/play/server/advance-endpoint";
import { createActivityFromTemplate, createUser } from "../../../prisma/seed/factories";
import { freshDatabase } from "../../../tests/support/helpers";
import { whileLockHeld } from "../../../tests/support/held-lock";
import { advanceEndpointListened } from "../../../tests/support/advance-helpers";
import { sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { twoSchools } from "../../../tests/support/two-schools";
import { endDeviceSessions } from "@/platform/auth/device-session-commands";
import { openSession } from "@/platform/auth/session-version-commands";

const CLASSES = 20;
let served: Awaited<ReturnType<typeof advanceEndpointListened>>;
let port: number;
const classes: { teacher: string; activity: string; scenes: string[] }[] = [];
const ids = {} as { student: string; otherTeacher: string; idle: string; disabled: string };

beforeAll(async () => {
  const { tag, academy, school, other } = await twoSchools();
  const user = async (role: "teacher" | "student", n: string, schoolId = school.id, disabled = false) =>
    (
      await createUser(db(), {
        role,
        email: `${n}-${tag}@t.example`,
        schoolId,
        academyId: academy.id,
        disabled,
        ...(role === "student" ? { student: { grade: 1, className: "1", number: 1 } } : {}),
      })
    ).id;
  for (let i = 0; i < CLASSES; i++) {
    const teacher = await user("teacher", `t${i}`);
    const activity = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "guide",
    });
    const scenes = (
      await db().activityScene.findMany({
        where: { activityId: activity.id },
        orderBy: { position: "asc" },
        select: { id: true },
      })
    ).map((s) => s.id);
    await db().guideSession.create({
      data: { activityId: activity.id, startedById: teacher, currentSceneId: scenes[0]! },
    });
    classes.push({ teacher, activity: activity.id, scenes });
  }
  Object.assign(ids, {
    student: await user("student", "s"),
    otherTeacher: await user("teacher", "o", other.id),
    idle: await user("teacher", "i"),
    disabled: await user("teacher", "d", school.id, true),
  });
  await db().user.update({ where: { id: ids.idle }, data: { lastActiveAt: new Date(Date.now() - 3 * 3600_000) } });

  served = await advanceEndpointListened();
  port = served.port;
});
afterAll(async () => {
  await served?.close();
  await db().$disconnect();
});

const cookieOf = (sub: string, role = "teacher") => sessionCookieOf(sub, role, 0);
async function press(cookie: string, activityId: string, sceneId: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/live/${activityId}/scene`, {
    method: "POST",
    body: JSON.stringify({ sceneId }),
    headers: { "content-type": "application/json", cookie },
  });
  return { status: res.status, body: (await res.json()) as unknown };
}
const sessionsOf = async (activityIds: string[]) =>
  db().$queryRaw<{ activity_id: string; current_scene_id: string; version: number; tx: string }[]>`
    select activity_id::text, current_scene_id::text, version, xmin::text as tx from guide_sessions where activity_id = any(${activityIds}::uuid[]) and ended_at is null`;

describe("presses that arrive together", () => {
  it("twenty teachers pressing at once: each class moved, audited and notified once, in far fewer statements than presses", async () => {
    const cookies = await Promise.all(classes.map((c) => cookieOf(c.teacher)));
    const before = new Map((await sessionsOf(classes.map((c) => c.activity))).map((s) => [s.activity_id, s.version]));
    served.notified.length = 0;
    // "at once" whatever the machine's load: the sessions are locked until every press has arrived, so
    // the presses wait behind the first statements as they would behind a busy database
    const from = served.received();
    const replies = await whileLockHeld(
      "lock table guide_sessions in share row exclusive mode",
      [],
      () => Promise.all(classes.map((c, i) => press(cookies[i]!, c.activity, c.scenes[1]!))),
      () => expect.poll(() => served.received() - from, { timeout: 30_000 }).toBe(CLASSES),
    );
    expect(replies).toEqual(classes.map(() => ({ status: 200, body: { ok: true, data: null } })));
    const after = await sessionsOf(classes.map((c) => c.activity));
    for (const s of after)
      expect(s).toMatchObject({
        current_scene_id: classes.find((c) => c.activity === s.activity_id)!.scenes[1],
        version: before.get(s.activity_id)! + 1,
      });
    // one transaction per statement: the moves that arrived together share one
    expect(new Set(after.map((s) => s.tx)).size).toBeLessThan(CLASSES / 2);
    const audits = await db().auditLog.findMany({
      where: { action: "guide.scene", targetId: { in: classes.map((c) => c.activity) } },
      select: { actorId: true, targetId: true },
    });
    expect(audits.map((a) => `${a.actorId}/${a.targetId}`).sort()).toEqual(
      classes.map((c) => `${c.teacher}/${c.activity}`).sort(),
    );
    const payloads = classes.map((c) => JSON.stringify({ topic: `activity:${c.activity}`, kind: "state" }));
    await expect
      .poll(() => payloads.every((p) => served.notified.filter((n) => n === p).length === 1), { timeout: 10_000 })
      .toBe(true);
  });

  it("refusals mixed in with the moves: each press gets its own reply, and only the allowed ones move", async () => {
    const [a, b, c] = classes as [(typeof classes)[0], (typeof classes)[0], (typeof classes)[0]];
    const cases: [string, string, string, number, string | null][] = [
      [await cookieOf(a.teacher), a.activity, a.scenes[2]!, 200, null],
      [await cookieOf(ids.student, "student"), b.activity, b.scenes[2]!, 403, "FORBIDDEN"],
      [await cookieOf(ids.otherTeacher), b.activity, b.scenes[2]!, 409, "CONFLICT"],
      [await cookieOf(ids.disabled), b.activity, b.scenes[2]!, 401, "UNAUTHENTICATED"],
      [await cookieOf(ids.idle), b.activity, b.scenes[2]!, 401, "UNAUTHENTICATED"],
      [await cookieOf(b.teacher), b.activity, a.scenes[3]!, 400, "VALIDATION"],
      [await cookieOf(c.teacher), c.activity, c.scenes[2]!, 200, null],
    ];
    const before = new Map((await sessionsOf([a.activity, b.activity, c.activity])).map((s) => [s.activity_id, s]));
    const replies = await Promise.all(cases.map(([cookie, activity, scene]) => press(cookie, activity, scene)));
    expect(replies.map((r) => r.status)).toEqual(cases.map((x) => x[3]));
    replies.forEach((r, i) =>
      expect(r.body).toMatchObject(cases[i]![4] ? { ok: false, code: cases[i]![4] } : { ok: true, data: null }),
    );
    const after = new Map((await sessionsOf([a.activity, b.activity, c.activity])).map((s) => [s.activity_id, s]));
    expect(after.get(a.activity)).toMatchObject({
      current_scene_id: a.scenes[2],
      version: before.get(a.activity)!.version + 1,
    });
    expect(after.get(b.activity)).toMatchObject({
      current_scene_id: before.get(b.activity)!.current_scene_id,
      version: before.get(b.activity)!.version,
    });
    expect(after.get(c.activity)).toMatchObject({
      current_scene_id: c.scenes[2],
      version: before.get(c.activity)!.version + 1,
    });
    expect(
      (await db().user.findUniqueOrThrow({ where: { id: ids.idle }, select: { sessionVersion: true } })).sessionVersion,
    ).toBe(1);
  });

  it("a press from a device the teacher signed out elsewhere is refused and moves nothing; their other device moves", async () => {
    const d = classes[5]!;
    const client = { ip: "198.51.100.5", userAgent: null };
    const [ended, kept] = [
      await openSession(d.teacher, "password", client),
      await openSession(d.teacher, "password", client),
    ];
    await endDeviceSessions(d.teacher, { only: ended.sid! });
    const before = (await sessionsOf([d.activity]))[0]!;
    const refused = await press(
      await sessionCookieOf(d.teacher, "teacher", ended.sv, ended.sid!),
      d.activity,
      d.scenes[3]!,
    );
    expect(refused).toMatchObject({ status: 401, body: { ok: false, code: "UNAUTHENTICATED" } });
    expect((await sessionsOf([d.activity]))[0]).toMatchObject({ version: before.version });
    const moved = await press(
      await sessionCookieOf(d.teacher, "teacher", kept.sv, kept.sid!),
      d.activity,
      d.scenes[3]!,
    );
    expect(moved.status).toBe(200);
    expect((await sessionsOf([d.activity]))[0]).toMatchObject({
      current_scene_id: d.scenes[3],
      version: before.version + 1,
    });
  });

  it("a press waiting behind the teacher ending the lesson moves nothing: the ended session keeps its scene, version and audit", async () => {
    const teacher = classes[0]!.teacher;
    const activity = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: (await db().user.findUniqueOrThrow({ where: { id: teacher } })).schoolId!,
      mode: "guide",
    });
    const scenes = await db().activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    const session = await db().guideSession.create({
      data: { activityId: activity.id, startedById: teacher, currentSceneId: scenes[0]!.id },
    });
    const cookie = await cookieOf(teacher);
    // the lesson is being ended (its row locked by that transaction) when the press arrives
    const reply = await whileLockHeld("update guide_sessions set ended_at = now() where id = $1", [session.id], () =>
      press(cookie, activity.id, scenes[1]!.id),
    );
    expect(reply.status).not.toBe(200);
    const after = await db().guideSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(after).toMatchObject({ currentSceneId: scenes[0]!.id, version: session.version });
    expect(await db().auditLog.count({ where: { action: "guide.scene", targetId: activity.id } })).toBe(0);
  });

  it("one teacher pressing several times at once: every press moves the class once", async () => {
    const [c] = classes as [(typeof classes)[0]];
    const cookie = await cookieOf(c.teacher);
    const { version } = (await sessionsOf([c.activity]))[0]!;
    const order = [c.scenes[3]!, c.scenes[0]!, c.scenes[4]!, c.scenes[1]!];
    const replies = await Promise.all(order.map((scene) => press(cookie, c.activity, scene)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await sessionsOf([c.activity]))[0]).toMatchObject({ version: version + 4 });
  });
});

describe("a started server", () => {
  const fresh = freshDatabase("advance_warm");
  it('has the connections of its presses open before the first press (the first "next" after a deploy waits for no connection)', async () => {
    const started = createAdvanceEndpoint({
      databaseUrl: fresh.url,
      authSecret: process.env.AUTH_SECRET!,
      production: true,
      poolSize: 8,
    });
    try {
      const open = async () =>
        Number(
          (
            await fresh.prisma.$queryRaw<
              { n: bigint }[]
            >`select count(*) as n from pg_stat_activity where datname = ${fresh.name} and application_name = 'manabiya-advance'`
          )[0]!.n,
        );
      await expect.poll(open, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      await started.close();
    }
  });
});

describe("game presses in the same statements", () => {
  it("次へ and a game's leaderboard pressed together: each press does its own change, a lesson not played as a game is refused", async () => {
    const games = classes.filter((_c, i) => i % 2 === 0);
    await db().guideSession.updateMany({
      where: { activityId: { in: games.map((c) => c.activity) }, endedAt: null },
      data: { game: true },
    });
    const cookies = await Promise.all(classes.map((c) => cookieOf(c.teacher)));
    const post = async (i: number, path: "game" | "scene", body: object) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/live/${classes[i]!.activity}/${path}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", cookie: cookies[i]! },
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const replies = await Promise.all(
      classes.map((c, i) =>
        i % 2 === 0
          ? post(i, "game", { board: "ranking" })
          : i === 1
            ? post(i, "game", { board: "ranking" })
            : post(i, "scene", { sceneId: c.scenes[2]! }),
      ),
    );
    const rows = await db().guideSession.findMany({
      where: { activityId: { in: classes.map((c) => c.activity) }, endedAt: null },
      select: { activityId: true, gameBoard: true, currentSceneId: true },
    });
    for (const [i, c] of classes.entries()) {
      const row = rows.find((r) => r.activityId === c.activity)!;
      if (i === 1) {
        expect(replies[i]).toMatchObject({ status: 400, body: { ok: false, code: "VALIDATION" } });
        expect(row.gameBoard).toBeNull();
      } else {
        expect(replies[i]).toEqual({ status: 200, body: { ok: true, data: null } });
        expect(row.gameBoard).toBe(i % 2 === 0 ? "ranking" : null);
        if (i % 2 === 1) expect(row.currentSceneId).toBe(c.scenes[2]);
      }
    }
    expect(
      await db().auditLog.count({ where: { action: "guide.game", targetId: { in: games.map((c) => c.activity) } } }),
    ).toBe(games.length);
  });
});
