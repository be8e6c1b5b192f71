/**
 * Passkeys as a staff second factor (platform/auth/passkey.ts), on the server, with a software authenticator
 * (tests/support/soft-passkey.ts): a registration and a sign-in pass only against this device session's unexpired
 * challenge, once; origin and RP ID are the public address's; another person's or a removed credential, a forged
 * signature and a counter that does not grow are refused; a passkey counts as the second factor for the policy; the
 * admin's reset removes passkeys too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../tests/support/next-headers-fake"));

import { resetSecondFactors } from "@/features/people/server/admin-commands";
import {
  checkPasskey,
  finishPasskeyRegistration,
  relyingParty,
  startPasskeyRegistration,
  startPasskeySignin,
} from "@/platform/auth/passkey";
import { removePasskeyAction } from "@/platform/auth/passkey-actions";
import { policyStanding, secondFactorDue } from "@/platform/auth/second-factor";
import { readFactorState } from "@/platform/auth/second-factor-queries";
import { openSession } from "@/platform/auth/session-version-commands";
import { db } from "@/platform/db";
import { createUser } from "../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../tests/support/next-headers-fake";
import { SoftPasskey } from "../../tests/support/soft-passkey";
import { twoSchools } from "../../tests/support/two-schools";

const client = { ip: "198.51.100.44", userAgent: null };
const fx = {} as { academy: string; school: string; tag: string };
let n = 0;

beforeAll(async () => {
  const { tag, academy, school } = await twoSchools();
  Object.assign(fx, { academy: academy.id, school: school.id, tag });
});
afterAll(async () => {
  await db().$disconnect();
});

async function person() {
  const email = `pk${n++}-${fx.tag}@t.example`;
  const user = await createUser(db(), { role: "teacher", email, schoolId: fx.school, academyId: fx.academy });
  const { sid, sv } = await openSession(user.id, "password", client);
  session.cookie = await sessionCookieOf(user.id, "teacher", sv, sid ?? undefined);
  return { id: user.id, email, schoolId: fx.school, academyId: fx.academy, sid: sid! };
}

/** A person with one passkey registered through the real ceremony; the authenticator. */
async function withPasskey() {
  const owner = await person();
  const key = new SoftPasskey();
  const { origin, rpID } = relyingParty();
  const options = await startPasskeyRegistration(owner, owner.sid);
  const response = key.register(options.challenge, origin, rpID);
  expect(await finishPasskeyRegistration(owner, owner.sid, response, "staff room PC", client)).toEqual({ ok: true });
  return { owner, key, response };
}

async function signinWith(
  owner: { id: string; sid: string },
  key: SoftPasskey,
  over: Partial<{ origin: string; rpID: string }> = {},
) {
  const options = (await startPasskeySignin({ ...owner, schoolId: fx.school, academyId: fx.academy }, owner.sid))!;
  const rp = { ...relyingParty(), ...over };
  return { options, response: key.assert(options.challenge, rp.origin, rp.rpID) };
}

const check = (owner: { id: string; sid: string }, response: ReturnType<SoftPasskey["assert"]>) =>
  checkPasskey({ id: owner.id, schoolId: fx.school, academyId: fx.academy }, owner.sid, response, client);

describe("passkey registration", () => {
  it("saves the credential once; the same answer again, another origin or RP ID, or an expired challenge is refused", async () => {
    const { owner, key, response } = await withPasskey();
    expect(await db().passkey.findMany({ where: { userId: owner.id } })).toEqual([
      expect.objectContaining({ credentialId: key.credentialId, name: "staff room PC", counter: 0n, lastUsedAt: null }),
    ]);
    // the challenge was used: the same answer again finds none
    expect(await finishPasskeyRegistration(owner, owner.sid, response, "again", client)).toEqual({
      ok: false,
      code: "passkeyExpired",
    });
    const { origin, rpID } = relyingParty();
    const other = new SoftPasskey();
    let options = await startPasskeyRegistration(owner, owner.sid);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    expect(
      await finishPasskeyRegistration(
        owner,
        owner.sid,
        other.register(options.challenge, "https://evil.example", rpID),
        "x",
        client,
      ),
    ).toEqual({ ok: false, code: "passkeyRefused" });
    options = await startPasskeyRegistration(owner, owner.sid);
    expect(
      await finishPasskeyRegistration(
        owner,
        owner.sid,
        other.register(options.challenge, origin, "evil.example"),
        "x",
        client,
      ),
    ).toEqual({ ok: false, code: "passkeyRefused" });
    options = await startPasskeyRegistration(owner, owner.sid);
    await db().webauthnChallenge.updateMany({
      where: { deviceSessionId: owner.sid },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      await finishPasskeyRegistration(owner, owner.sid, other.register(options.challenge, origin, rpID), "x", client),
    ).toEqual({ ok: false, code: "passkeyExpired" });
    // another device session's challenge is not this one's
    const elsewhere = await person();
    options = await startPasskeyRegistration(owner, owner.sid);
    expect(
      await finishPasskeyRegistration(
        elsewhere,
        elsewhere.sid,
        other.register(options.challenge, origin, rpID),
        "x",
        client,
      ),
    ).toEqual({ ok: false, code: "passkeyExpired" });
    expect(await db().passkey.count({ where: { userId: { in: [owner.id, elsewhere.id] } } })).toBe(1);
  });
});

describe("passkey sign-in", () => {
  it("passes once per challenge with a growing counter, and records when it was used", async () => {
    const { owner, key } = await withPasskey();
    const { response } = await signinWith(owner, key);
    expect(await check(owner, response)).toEqual({ ok: true });
    const saved = await db().passkey.findFirstOrThrow({ where: { userId: owner.id } });
    expect(saved.counter).toBe(1n);
    expect(saved.lastUsedAt).not.toBeNull();
    // replayed: the challenge is spent
    expect(await check(owner, response)).toMatchObject({ ok: false, code: "passkeyExpired" });
    // a fresh challenge signed with a counter that did not grow (a cloned key): refused
    const options = (await startPasskeySignin(owner, owner.sid))!;
    const { origin, rpID } = relyingParty();
    expect(await check(owner, key.assert(options.challenge, origin, rpID, false))).toMatchObject({
      ok: false,
      code: "passkeyRefused",
    });
    const log = await db().auditLog.findMany({
      where: { actorId: owner.id, action: { startsWith: "signin.passkey" } },
    });
    expect(log.map((e) => e.action).sort()).toEqual([
      "signin.passkey.failure",
      "signin.passkey.failure",
      "signin.passkey.success",
    ]);
  });

  it("refuses another origin or RP ID, another person's credential, a forged signature and a removed passkey", async () => {
    const { owner, key } = await withPasskey();
    expect(
      await check(owner, (await signinWith(owner, key, { origin: "https://evil.example" })).response),
    ).toMatchObject({ ok: false, code: "passkeyRefused" });
    expect(await check(owner, (await signinWith(owner, key, { rpID: "evil.example" })).response)).toMatchObject({
      ok: false,
      code: "passkeyRefused",
    });
    const { owner: someoneElse, key: theirs } = await withPasskey();
    const { response } = await signinWith(owner, theirs);
    expect(await check(owner, response)).toMatchObject({ ok: false, code: "passkeyRefused" });
    const forged = (await signinWith(owner, key)).response;
    forged.response.signature = (await signinWith(someoneElse, theirs)).response.response.signature;
    expect(await check(owner, forged)).toMatchObject({ ok: false, code: "passkeyRefused" });
    // removed on the settings page: no longer accepted
    session.cookie = await sessionCookieOf(owner.id, "teacher", 0, owner.sid);
    const { id } = await db().passkey.findFirstOrThrow({ where: { userId: owner.id } });
    expect(await removePasskeyAction({ id })).toEqual({ ok: true, data: null });
    expect(await startPasskeySignin(owner, owner.sid)).toBeNull();
    await db().webauthnChallenge.create({
      data: {
        deviceSessionId: owner.sid,
        purpose: "signin",
        challenge: "Y2hhbGxlbmdl",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    expect(await check(owner, key.assert("Y2hhbGxlbmdl", relyingParty().origin, relyingParty().rpID))).toMatchObject({
      ok: false,
      code: "passkeyRefused",
    });
  });
});

describe("passkeys and the policy", () => {
  it("a passkey is the second factor: asked at sign-in, enough for the policy, the last one kept while required; the admin's reset removes them", async () => {
    const { owner } = await withPasskey();
    const state = (await readFactorState(owner.id))!;
    expect(state.passkeys).toBe(1);
    expect(policyStanding(state)).toBe("enrolled");
    expect(await secondFactorDue(owner.id, false)).toBe(true);
    await db().academy.update({
      where: { id: fx.academy },
      data: { requireSecondFactor: true, secondFactorGraceUntil: null },
    });
    try {
      session.cookie = await sessionCookieOf(owner.id, "teacher", 0, owner.sid);
      const { id } = await db().passkey.findFirstOrThrow({ where: { userId: owner.id } });
      expect(await removePasskeyAction({ id })).toEqual({ ok: false, code: "FORBIDDEN" });
    } finally {
      await db().academy.update({ where: { id: fx.academy }, data: { requireSecondFactor: false } });
    }
    expect(await resetSecondFactors(owner.email)).toEqual({ ok: true, data: { removed: true } });
    expect(await db().passkey.count({ where: { userId: owner.id } })).toBe(0);
    expect(await secondFactorDue(owner.id, false)).toBe(false);
  });
});
