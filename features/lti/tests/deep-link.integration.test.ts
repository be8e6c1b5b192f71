/**
 * Deep Linking 2.0 (features/lti/server/deep-link.ts) against the platform emulator (tests/support/lti-platform.ts)
 * and real PostgreSQL: a staff member's deep linking request goes through the same login and launch verification,
 * lands on the picker with the request kept for them, and their pick comes back as an LtiDeepLinkingResponse signed
 * with our current key, verified here against what GET /api/lti/jwks publishes. Each refusal differs from the
 * accepted request or pick in one thing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { db } from "@/platform/db";
import { publicUrl } from "@/platform/env";
import { pickActivity } from "@/features/lti/server/deep-link";
import { findCurrentKey } from "@/features/lti/server/key-queries";
import { toolJwks } from "@/features/lti/server/keys";
import { verifyLaunch } from "@/features/lti/server/launch";
import { startLogin } from "@/features/lti/server/login";
import { setLtiPlatform } from "@/features/lti/server/platform-commands";
import { createActivityFromTemplate, createUser } from "../../../prisma/seed/factories";
import { type LaunchSpec, type LtiPlatformEmulator, startLtiPlatform } from "../../../tests/support/lti-platform";
import { twoSchools } from "../../../tests/support/two-schools";

const LTI = "https://purl.imsglobal.org/spec/lti/claim";
const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";
let platform: LtiPlatformEmulator;
type Person = {
  id: string;
  sourcedId: string;
  role: "student" | "teacher" | "manager";
  schoolId: string | null;
  academyId: string;
};
const people = {} as Record<"student" | "teacher" | "colleague" | "siblingTeacher" | "manager", Person>;
const activities = { own: "", sibling: "", archived: "", foreign: "" };
let academyId = "";

beforeAll(async () => {
  platform = await startLtiPlatform({ toolUrl: publicUrl() });
  const { tag, academy, school, other } = await twoSchools();
  academyId = academy.id;
  await setLtiPlatform(
    academy.id,
    {
      ...{ issuer: platform.issuer, clientId: platform.clientId, deploymentIds: [platform.deploymentId] },
      ...{ authLoginUrl: platform.authUrl, tokenUrl: platform.tokenUrl, jwksUrl: platform.jwksUrl },
      identityClaim: "sub",
    },
    { via: "cli" },
  );
  const person = async (role: Person["role"], schoolId: string | null): Promise<Person> => {
    const sourcedId = randomUUID();
    const user = await createUser(db(), {
      role,
      email: `${sourcedId}@t.example`,
      academyId: academy.id,
      schoolId,
      ...(role === "student" ? { student: { grade: 1, className: "1", number: 1 } } : {}),
    });
    await db().user.update({ where: { id: user.id }, data: { sourcedId } });
    return { id: user.id, sourcedId, role, schoolId, academyId: academy.id };
  };
  people.student = await person("student", school.id);
  people.teacher = await person("teacher", school.id);
  people.colleague = await person("teacher", school.id);
  people.siblingTeacher = await person("teacher", other.id);
  people.manager = await person("manager", null);
  const make = async (schoolId: string) =>
    (await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" })).id;
  activities.own = await make(school.id);
  await db().activity.update({ where: { id: activities.own }, data: { title: `|溶(と)ける${tag}` } });
  activities.sibling = await make(other.id);
  activities.archived = await make(school.id);
  await db().activity.update({ where: { id: activities.archived }, data: { status: "archived" } });
  const elsewhere = await twoSchools();
  activities.foreign = await make(elsewhere.school.id);
});
afterAll(async () => {
  await platform.close();
  await db().$disconnect();
});

/** A deep linking request of `who` (or `over`) through a fresh login and launch; the launch's outcome. */
async function deepLinkLaunch(who: Person, over: Partial<LaunchSpec> = {}) {
  const started = await startLogin(
    new URLSearchParams({
      iss: platform.issuer,
      login_hint: who.sourcedId,
      target_link_uri: `${publicUrl()}/lti/deep-link`,
      client_id: platform.clientId,
    }),
  );
  if (!started.ok) throw new Error("login refused");
  const nonce = new URL(started.redirect).searchParams.get("nonce")!;
  const spec: LaunchSpec = {
    sub: who.sourcedId,
    deploymentId: platform.deploymentId,
    targetLinkUri: `${publicUrl()}/lti/deep-link`,
    roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
    deepLinking: { data: "portal-opaque-42" },
    ...over,
  };
  return verifyLaunch({ idToken: await platform.idToken(spec, nonce), state: started.state, stateBound: true });
}

/** The picker's request secret of an accepted deep linking launch. */
async function requestOf(who: Person, over: Partial<LaunchSpec> = {}): Promise<string> {
  const outcome = await deepLinkLaunch(who, over);
  if (!outcome.ok) throw new Error(`refused: ${outcome.code}`);
  return new URL(outcome.landing, publicUrl()).searchParams.get("request")!;
}

const pick = (who: Person, request: string, activityId: string) =>
  pickActivity({
    form: { request, activity: activityId },
    picker: { id: who.id, role: who.role as "teacher" | "manager", schoolId: who.schoolId, academyId: who.academyId },
  });

/** What GET /api/lti/jwks publishes (its body: features/lti/server/routes.ts ltiJwks; over HTTP: tests/e2e/lti.spec.ts). */
async function publishedKeySet() {
  return createLocalJWKSet((await toolJwks()) as JSONWebKeySet);
}

const waiting = (userId: string) => db().ltiDeepLinkRequest.count({ where: { userId } });

describe("deep linking (LTI Deep Linking 2.0)", () => {
  it("a teacher's deep linking request lands on the picker; the pick is an LtiDeepLinkingResponse signed with our current key, verified against GET /api/lti/jwks, its claims exact", async () => {
    const outcome = await deepLinkLaunch(people.teacher);
    expect(outcome).toEqual({
      ok: true,
      user: { id: people.teacher.id, role: "teacher" },
      academyId,
      landing: expect.stringMatching(/^\/lti\/deep-link\?request=[\w-]{43}$/),
      frameAncestors: [platform.issuer],
    });
    const request = new URL((outcome as { landing: string }).landing, publicUrl()).searchParams.get("request")!;
    const picked = await pick(people.teacher, request, activities.own);
    if (!picked.ok) throw new Error(picked.code);
    expect(picked.returnUrl).toBe(platform.deepLinkReturnUrl);
    const { payload, protectedHeader } = await jwtVerify(picked.jwt, await publishedKeySet(), {
      issuer: platform.clientId,
      audience: platform.issuer,
      algorithms: ["RS256"],
    });
    expect(protectedHeader).toEqual({ alg: "RS256", kid: (await findCurrentKey())!.kid, typ: "JWT" });
    expect(payload).toEqual({
      iss: platform.clientId,
      aud: platform.issuer,
      iat: expect.any(Number),
      exp: expect.any(Number),
      nonce: expect.stringMatching(/^[\w-]{22}$/),
      [`${LTI}/message_type`]: "LtiDeepLinkingResponse",
      [`${LTI}/version`]: "1.3.0",
      [`${LTI}/deployment_id`]: platform.deploymentId,
      [`${DL}/content_items`]: [
        {
          type: "ltiResourceLink",
          url: `${publicUrl()}/lti/activities/${activities.own}`,
          title: expect.stringMatching(/^溶ける/),
          custom: { activity_id: activities.own },
        },
      ],
      [`${DL}/data`]: "portal-opaque-42",
    });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(30);
  });

  it("a manager may link an activity of any school of their academy; without data, none is echoed", async () => {
    const request = await requestOf(people.manager, { deepLinking: {} });
    const picked = await pick(people.manager, request, activities.sibling);
    if (!picked.ok) throw new Error(picked.code);
    const { payload } = await jwtVerify(picked.jwt, await publishedKeySet());
    expect(payload[`${DL}/content_items`]).toMatchObject([{ custom: { activity_id: activities.sibling } }]);
    expect(payload).not.toHaveProperty(`${DL}/data`);
  });

  const refusals: [string, string, () => ReturnType<typeof deepLinkLaunch>][] = [
    [
      "a student (by the account's own role, whatever the token claims)",
      "staffOnly",
      () => deepLinkLaunch(people.student),
    ],
    [
      "settings without a return URL",
      "missingClaims",
      () => deepLinkLaunch(people.teacher, { deepLinking: { returnUrl: "not a url" } }),
    ],
    [
      "a return URL on another site than the registered platform's (the signed response would go there)",
      "foreignReturnUrl",
      () => deepLinkLaunch(people.teacher, { deepLinking: { returnUrl: "https://attacker.example/collect" } }),
    ],
    [
      "settings that do not accept resource links",
      "unsupportedContent",
      () => deepLinkLaunch(people.teacher, { deepLinking: { acceptTypes: ["file", "html"] } }),
    ],
    [
      "no settings claim",
      "missingClaims",
      () => deepLinkLaunch(people.teacher, { claims: { [`${DL}/deep_linking_settings`]: undefined } }),
    ],
  ];
  it.each(refusals)(
    "refuses a deep linking request of %s (%s), keeping no request and signing nobody in",
    async (_what, code, attempt) => {
      const before = await db().ltiDeepLinkRequest.count();
      expect(await attempt()).toMatchObject({ ok: false, code });
      expect(await db().ltiDeepLinkRequest.count()).toBe(before);
    },
  );

  it("a pick is bound to its launch: a replayed pick, another staff member's, a forged request and one past its lifetime are refused", async () => {
    const request = await requestOf(people.teacher);
    expect(await pick(people.teacher, request, activities.own)).toMatchObject({ ok: true });
    expect(await pick(people.teacher, request, activities.own)).toEqual({ ok: false, code: "pickExpired" });

    const theirs = await requestOf(people.colleague);
    expect(await pick(people.teacher, theirs, activities.own)).toEqual({ ok: false, code: "pickExpired" });
    expect(await waiting(people.colleague.id)).toBe(1); // still the colleague's to use
    expect(await pick(people.colleague, theirs, activities.own)).toMatchObject({ ok: true });

    expect(await pick(people.teacher, "A".repeat(43), activities.own)).toEqual({ ok: false, code: "pickExpired" });
    expect(await pick(people.teacher, "", activities.own)).toEqual({ ok: false, code: "pickExpired" });

    const late = await requestOf(people.teacher);
    await db().ltiDeepLinkRequest.updateMany({
      where: { userId: people.teacher.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await pick(people.teacher, late, activities.own)).toEqual({ ok: false, code: "pickExpired" });
  });

  it("an activity of another school, of another academy, archived or made up is refused, and the request stays waiting for a right pick", async () => {
    await db().ltiDeepLinkRequest.deleteMany({ where: { userId: people.teacher.id } });
    const request = await requestOf(people.teacher);
    for (const activityId of [activities.sibling, activities.foreign, activities.archived, randomUUID(), "x"])
      expect(await pick(people.teacher, request, activityId)).toEqual({ ok: false, code: "otherActivity" });
    expect(await waiting(people.teacher.id)).toBe(1);
    expect(await pick(people.siblingTeacher, request, activities.sibling)).toEqual({ ok: false, code: "pickExpired" });
    expect(await pick(people.teacher, request, activities.own)).toMatchObject({ ok: true });
  });
});
