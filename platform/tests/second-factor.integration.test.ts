/**
 * A teacher's or manager's second factor (platform/auth/second-factor.ts): a sign-in of someone with an app opens a
 * pending session that no page, action or stream accepts until a right code; a code is never accepted twice; a
 * recovery code works once; the academy's policy makes staff enrol after its grace end; students are never asked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../tests/support/next-headers-fake"));

import { getActor, getPendingSignin, sessionStillCurrent } from "@/platform/auth/session";
import { openSession } from "@/platform/auth/session-version-commands";
import { endOtherDeviceSessionsAction } from "@/platform/auth/device-actions";
import {
  amrAssertsSecondFactor,
  checkSecondFactor,
  confirmTotpEnrolment,
  secondFactorDue,
  startTotpEnrolment,
} from "@/platform/auth/second-factor";
import {
  confirmPendingEnrolmentAction,
  startPendingEnrolmentAction,
  startTotpEnrolmentAction,
} from "@/platform/auth/second-factor-actions";
import { passSecondFactor } from "@/platform/auth/second-factor-commands";
import { LIMITS } from "@/platform/auth/throttle";
import { totpCode } from "@/platform/auth/totp";
import { db } from "@/platform/db";
import { createUser } from "../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../tests/support/next-headers-fake";
import { twoSchools } from "../../tests/support/two-schools";

const saveSecondFactorPolicy = (academyId: string, require: boolean, graceUntil: Date | null) =>
  db().academy.update({
    where: { id: academyId },
    data: { requireSecondFactor: require, secondFactorGraceUntil: graceUntil },
  });
const client = { ip: "198.51.100.40", userAgent: null };
const fx = {} as { academy: string; school: string; tag: string };
let n = 0;

beforeAll(async () => {
  const { tag, academy, school } = await twoSchools();
  Object.assign(fx, { academy: academy.id, school: school.id, tag });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await db().$disconnect();
});

async function person(role: "teacher" | "manager" | "student" = "teacher") {
  const user = await createUser(db(), {
    role,
    email: `mfa${n++}-${fx.tag}@t.example`,
    schoolId: fx.school,
    academyId: fx.academy,
    ...(role === "student" ? { student: { grade: 1, className: "1", number: n } } : {}),
  });
  return { id: user.id, schoolId: fx.school, academyId: fx.academy };
}

/** A teacher with an app set up (confirmed at `at`); its secret. */
async function enrolled(at = Date.now()) {
  const owner = await person();
  const enrolment = (await startTotpEnrolment(owner.id, "t@example"))!;
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  const confirmed = await confirmTotpEnrolment(owner, totpCode(enrolment.secret), client);
  expect(confirmed.ok).toBe(true);
  return { owner, secret: enrolment.secret, codes: confirmed.ok ? confirmed.recoveryCodes : [] };
}

/** A sign-in as the jwt callback opens it; the session cookie is this request's. */
async function signIn(userId: string, role = "teacher", providerAsserted = false) {
  const pending = role !== "student" && (await secondFactorDue(userId, providerAsserted));
  const opened = await openSession(userId, "password", client, pending);
  session.cookie = await sessionCookieOf(userId, role, opened.sv, opened.sid ?? undefined);
  return { ...opened, pending };
}

describe("second factor at sign-in", () => {
  it("a pending sign-in is refused by every check (pages, actions, streams) until a right code", async () => {
    const { owner, secret } = await enrolled();
    const { sid, pending } = await signIn(owner.id);
    expect(pending).toBe(true);
    expect(await getActor()).toBeNull();
    expect(await (await sessionStillCurrent())()).toBe(false);
    expect(await endOtherDeviceSessionsAction({})).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    expect(await startTotpEnrolmentAction({})).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    expect(await getPendingSignin()).toMatchObject({ id: owner.id, sid });

    vi.setSystemTime(Date.now() + 30_000);
    const wrong = totpCode(secret) === "000000" ? "111111" : "000000";
    expect(await checkSecondFactor(owner, wrong, client)).toEqual({ ok: false, code: "wrongCode" });
    expect(await getActor()).toBeNull();
    expect(await checkSecondFactor(owner, totpCode(secret), client)).toEqual({ ok: true, method: "totp" });
    expect(await passSecondFactor(owner.id, sid!)).toBe(true);
    expect(await getActor()).toMatchObject({ id: owner.id });
    expect(await getPendingSignin()).toBeNull();
  });

  it("a code is never accepted twice, nor one of the step enrolment used", async () => {
    const { owner, secret } = await enrolled();
    expect(await checkSecondFactor(owner, totpCode(secret), client)).toMatchObject({ ok: false, code: "wrongCode" });
    vi.setSystemTime(Date.now() + 30_000);
    const code = totpCode(secret);
    expect(await checkSecondFactor(owner, code, client)).toMatchObject({ ok: true });
    expect(await checkSecondFactor(owner, code, client)).toMatchObject({ ok: false, code: "wrongCode" });
    // the previous step's code is within the window but older than the last accepted: refused
    expect(await checkSecondFactor(owner, totpCode(secret, Date.now() - 30_000), client)).toMatchObject({ ok: false });
  });

  it("a recovery code works once, in any case and with or without its dash, and not twice", async () => {
    const { owner, codes } = await enrolled();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const first = codes[0]!;
    expect(await checkSecondFactor(owner, first.toUpperCase().replace("-", " "), client)).toEqual({
      ok: true,
      method: "recovery",
    });
    expect(await checkSecondFactor(owner, first, client)).toEqual({ ok: false, code: "wrongCode" });
    const other = await enrolled();
    expect(await checkSecondFactor(other.owner, codes[1]!, client)).toMatchObject({ ok: false }); // not theirs
    expect(await checkSecondFactor(owner, codes[1]!, client)).toMatchObject({ ok: true });
  });

  it("secrets and recovery codes are not kept in the clear", async () => {
    const { owner, secret, codes } = await enrolled();
    const row = await db().totpFactor.findUniqueOrThrow({ where: { userId: owner.id } });
    expect(row.secretSealed).not.toContain(secret);
    const hashes = (await db().recoveryCode.findMany({ where: { userId: owner.id } })).map((r) => r.codeHash);
    expect(hashes).toHaveLength(10);
    for (const code of codes) expect(hashes.join()).not.toContain(code.replace("-", ""));
  });

  it("guessing is throttled: after the limit even the right code is refused", async () => {
    const { owner, secret } = await enrolled();
    vi.setSystemTime(Date.now() + 30_000);
    const wrong = totpCode(secret) === "000000" ? "111111" : "000000";
    for (let i = 0; i < LIMITS.factor; i++) expect((await checkSecondFactor(owner, wrong, client)).ok).toBe(false);
    expect(await checkSecondFactor(owner, totpCode(secret), client)).toMatchObject({
      ok: false,
      code: "tooManyRequests",
    });
  });

  it("a pending sign-in cannot replace the person's app with its own", async () => {
    const { owner } = await enrolled();
    await signIn(owner.id);
    expect(await startPendingEnrolmentAction()).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(await confirmPendingEnrolmentAction({ code: "123456" })).toMatchObject({ ok: false });
    expect(await getActor()).toBeNull();
  });

  it("a provider that asserts a second factor (amr) counts; students are never asked", async () => {
    const { owner } = await enrolled();
    expect(amrAssertsSecondFactor({ amr: ["pwd", "mfa"] })).toBe(true);
    expect(amrAssertsSecondFactor({ amr: ["pwd"] })).toBe(false);
    expect(amrAssertsSecondFactor({ amr: "mfa" })).toBe(false);
    expect((await signIn(owner.id, "teacher", true)).pending).toBe(false);
    expect(await getActor()).toMatchObject({ id: owner.id });
    const student = await person("student");
    expect(await secondFactorDue(student.id, false)).toBe(false);
  });
});

describe("the academy's policy", () => {
  it("staff without a factor sign in during the grace period, must enrol after it; students never", async () => {
    const teacher = await person("teacher");
    const student = await person("student");
    expect(await secondFactorDue(teacher.id, false)).toBe(false);
    await saveSecondFactorPolicy(fx.academy, true, new Date(Date.now() + 86_400_000));
    try {
      expect(await secondFactorDue(teacher.id, false)).toBe(false);
      await saveSecondFactorPolicy(fx.academy, true, new Date(Date.now() - 1000));
      expect(await secondFactorDue(teacher.id, false)).toBe(true);
      expect(await secondFactorDue(student.id, false)).toBe(false);

      await signIn(teacher.id);
      expect(await getActor()).toBeNull();
      const started = await startPendingEnrolmentAction();
      if (!started.ok) throw new Error(started.code);
      expect(started.data.uri).toMatch(/^otpauth:\/\/totp\/Manabiya:.*secret=/);
      expect(started.data.qr).toMatch(/^data:image\/png;base64,/);
      expect(await confirmPendingEnrolmentAction({ code: "abc" })).toMatchObject({ ok: false });
      const done = await confirmPendingEnrolmentAction({ code: totpCode(started.data.secret) });
      expect(done).toMatchObject({ ok: true, data: { recoveryCodes: expect.any(Array) } });
      expect(await getActor()).toMatchObject({ id: teacher.id });
    } finally {
      await saveSecondFactorPolicy(fx.academy, false, null);
    }
  });
});
