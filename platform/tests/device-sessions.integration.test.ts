/**
 * A teacher's or manager's signed-in devices (platform/auth/device-sessions.ts): each sign-in opens one, named
 * in the token; ending one signs out exactly that device — its pages, its open streams and its "next" presses —
 * and no one else's; a new password (the session version) ends every device at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../tests/support/next-headers-fake"));

import { getActor, sessionStillCurrent } from "@/platform/auth/session";
import { openSession } from "@/platform/auth/session-version-commands";
import { endDeviceSessions } from "@/platform/auth/device-session-commands";
import { listOpenDeviceSessions } from "@/platform/auth/device-session-queries";
import { db } from "@/platform/db";
import { createUser } from "../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../tests/support/next-headers-fake";
import { twoSchools } from "../../tests/support/two-schools";

const ids = {} as { teacher: string; other: string; student: string };
const UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

beforeAll(async () => {
  const { tag, academy, school } = await twoSchools();
  const user = async (role: "teacher" | "student", n: string) =>
    (
      await createUser(db(), {
        role,
        email: `${n}-${tag}@t.example`,
        schoolId: school.id,
        academyId: academy.id,
        ...(role === "student" ? { student: { grade: 1, className: "1", number: 1 } } : {}),
      })
    ).id;
  Object.assign(ids, {
    teacher: await user("teacher", "t"),
    other: await user("teacher", "o"),
    student: await user("student", "s"),
  });
});
afterAll(async () => {
  await db().$disconnect();
});

async function signedIn(userId: string, role: string, ip: string) {
  const { sv, sid } = await openSession(userId, "password", { ip, userAgent: UA });
  return { sv, sid, cookie: await sessionCookieOf(userId, role, sv, sid ?? undefined) };
}
async function actorWith(cookie: string) {
  session.cookie = cookie;
  const actor = await getActor();
  return actor && actor !== "disabled" ? actor.id : actor;
}

describe("device sessions", () => {
  it("a staff sign-in opens a device, listed with its address and browser; a student's opens none", async () => {
    const laptop = await signedIn(ids.teacher, "teacher", "198.51.100.7");
    expect(laptop.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await listOpenDeviceSessions(ids.teacher)).toEqual([
      expect.objectContaining({ id: laptop.sid, method: "password", ip: "198.51.100.7", userAgent: UA }),
    ]);
    const kid = await signedIn(ids.student, "student", "198.51.100.8");
    expect(kid.sid).toBeNull();
    expect(await db().deviceSession.count({ where: { userId: ids.student } })).toBe(0);
    expect(await actorWith(kid.cookie)).toBe(ids.student);
  });

  it("ending one device signs out that device (pages and open streams), not the person's others", async () => {
    const laptop = await signedIn(ids.teacher, "teacher", "198.51.100.7");
    const tablet = await signedIn(ids.teacher, "teacher", "198.51.100.9");
    session.cookie = tablet.cookie;
    const tabletStream = await sessionStillCurrent();
    session.cookie = laptop.cookie;
    const laptopStream = await sessionStillCurrent();
    expect(await actorWith(tablet.cookie)).toBe(ids.teacher);
    expect(await tabletStream()).toBe(true);

    expect(await endDeviceSessions(ids.teacher, { only: tablet.sid! })).toEqual([tablet.sid]);
    expect(await actorWith(tablet.cookie)).toBeNull();
    expect(await tabletStream()).toBe(false);
    expect(await actorWith(laptop.cookie)).toBe(ids.teacher);
    expect(await laptopStream()).toBe(true);
    expect((await listOpenDeviceSessions(ids.teacher)).map((d) => d.id)).not.toContain(tablet.sid);
    // ended twice: nothing more to end
    expect(await endDeviceSessions(ids.teacher, { only: tablet.sid! })).toEqual([]);
  });

  it("another person cannot end someone's device, even naming its id", async () => {
    const laptop = await signedIn(ids.teacher, "teacher", "198.51.100.7");
    expect(await endDeviceSessions(ids.other, { only: laptop.sid! })).toEqual([]);
    expect(await endDeviceSessions(ids.other, { keep: null })).toEqual([]);
    expect(await actorWith(laptop.cookie)).toBe(ids.teacher);
  });

  it("every other device ends at once; this one stays", async () => {
    const a = await signedIn(ids.teacher, "teacher", "198.51.100.1");
    const b = await signedIn(ids.teacher, "teacher", "198.51.100.2");
    const here = await signedIn(ids.teacher, "teacher", "198.51.100.3");
    const ended = await endDeviceSessions(ids.teacher, { keep: here.sid });
    expect(ended).toEqual(expect.arrayContaining([a.sid, b.sid]));
    expect(ended).not.toContain(here.sid);
    expect(await actorWith(a.cookie)).toBeNull();
    expect(await actorWith(b.cookie)).toBeNull();
    expect(await actorWith(here.cookie)).toBe(ids.teacher);
    expect((await listOpenDeviceSessions(ids.teacher)).map((d) => d.id)).toEqual([here.sid]);
  });

  it("a new password (the session version) ends every device, and the list shows none of them", async () => {
    const here = await signedIn(ids.other, "teacher", "198.51.100.4");
    expect(await listOpenDeviceSessions(ids.other)).toHaveLength(1);
    await db().user.update({ where: { id: ids.other }, data: { sessionVersion: { increment: 1 } } });
    expect(await listOpenDeviceSessions(ids.other)).toEqual([]);
    expect(await actorWith(here.cookie)).toBeNull();
  });
});
