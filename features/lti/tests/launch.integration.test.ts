/**
 * An LTI 1.3 launch (features/lti/server/login.ts, launch.ts) against a platform emulator serving its JWKS over HTTP
 * (tests/support/lti-platform.ts) and real PostgreSQL: the login initiation keeps a state and nonce, the launch
 * verifies the id_token and names the person, and each bad launch is refused with its own reason, changing nothing.
 * Each refusal differs from the accepted launch in exactly one thing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/platform/db";
import { stopJobQueue } from "@/platform/queue/commands";
import { publicUrl } from "@/platform/env";
import { startLogin } from "@/features/lti/server/login";
import { verifyLaunch } from "@/features/lti/server/launch";
import { setLtiPlatform } from "@/features/lti/server/platform-commands";
import { createAcademy, createActivityFromTemplate, createSchool, createUser } from "../../../prisma/seed/factories";
import { type LaunchSpec, type LtiPlatformEmulator, startLtiPlatform } from "../../../tests/support/lti-platform";
import { registrationOf } from "../../../tests/support/lti-setup";
import { twoSchools } from "../../../tests/support/two-schools";

const LTI = "https://purl.imsglobal.org/spec/lti/claim";
let platform: LtiPlatformEmulator;
const people = {} as Record<"student" | "teacher" | "disabled" | "foreign", { id: string; sourcedId: string }>;
let activity: string;
const lti = { academy: "", elsewhere: "" };
let guided: string;
let otherSchools: string;

beforeAll(async () => {
  platform = await startLtiPlatform({ toolUrl: publicUrl() });
  const { tag, academy, school, other } = await twoSchools();
  const elsewhere = await createAcademy(db(), { name: `X${tag}`, nameKana: "えっくす" });
  Object.assign(lti, { academy: academy.id, elsewhere: elsewhere.id });
  await setLtiPlatform(academy.id, { ...registrationOf(platform), identityClaim: "sub" }, { via: "cli" });
  let seat = 0;
  const person = async (role: "student" | "teacher", academyId: string, schoolId: string | null, disabled = false) => {
    const sourcedId = randomUUID();
    const user = await createUser(db(), {
      role,
      email: `${sourcedId}@t.example`,
      academyId,
      schoolId,
      disabled,
      ...(role === "student" ? { student: { grade: 1, className: "1", number: ++seat } } : {}),
    });
    await db().user.update({ where: { id: user.id }, data: { sourcedId } });
    return { id: user.id, sourcedId };
  };
  people.student = await person("student", academy.id, school.id);
  people.teacher = await person("teacher", academy.id, school.id);
  people.disabled = await person("student", academy.id, school.id, true);
  const elsewhereSchool = await createSchool(db(), { academyId: elsewhere.id, name: `X${tag}`, nameKana: "えっくす" });
  people.foreign = await person("teacher", elsewhere.id, elsewhereSchool.id);
  activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "self" })
  ).id;
  otherSchools = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: other.id, mode: "self" })
  ).id;
  guided = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "guide" })
  ).id;
});
afterAll(async () => {
  // a launch naming a line item started the score queue
  await stopJobQueue();
  await platform.close();
  await db().$disconnect();
});

const target = (id: string) => `${publicUrl()}/lti/activities/${id}`;
const spec = (over: Partial<LaunchSpec> = {}): LaunchSpec => ({
  sub: people.student.sourcedId,
  deploymentId: platform.deploymentId,
  targetLinkUri: target(activity),
  ...over,
});

/** The login initiation as the platform sends it; the state and nonce it kept. */
async function login(params: Record<string, string> = {}) {
  const outcome = await startLogin(
    new URLSearchParams({
      iss: platform.issuer,
      login_hint: people.student.sourcedId,
      target_link_uri: target(activity),
      client_id: platform.clientId,
      lti_deployment_id: platform.deploymentId,
      ...params,
    }),
  );
  if (!outcome.ok) return outcome;
  const url = new URL(outcome.redirect);
  return { ...outcome, nonce: url.searchParams.get("nonce")!, url };
}

/** A launch of `over` through a fresh login; the outcome. */
async function launch(over: Partial<LaunchSpec> = {}, options: { nonce?: string; bound?: boolean } = {}) {
  const started = await login();
  if (!started.ok) throw new Error("login refused");
  const idToken = await platform.idToken(spec(over), options.nonce ?? started.nonce);
  return verifyLaunch({ idToken, state: started.state, stateBound: options.bound ?? true });
}

/** This file's academies' people, accounts and devices (other test files write their own at the same time). */
const counts = async () => {
  const academyIds = [lti.academy, lti.elsewhere];
  const inAcademies = { OR: [{ academyId: { in: academyIds } }, { school: { academyId: { in: academyIds } } }] };
  const ofThem = { user: inAcademies };
  return {
    users: await db().user.count({ where: inAcademies }),
    accounts: await db().account.count({ where: ofThem }),
    devices: await db().deviceSession.count({ where: ofThem }),
  };
};

describe("the login initiation", () => {
  it("sends the browser to the platform's auth URL with a fresh state and nonce, our client id and launch URL", async () => {
    const a = await login();
    const b = await login();
    if (!a.ok || !b.ok) throw new Error("refused");
    expect(a.url.origin + a.url.pathname).toBe(platform.authUrl);
    expect(Object.fromEntries(a.url.searchParams)).toMatchObject({
      scope: "openid",
      response_type: "id_token",
      response_mode: "form_post",
      prompt: "none",
      client_id: platform.clientId,
      redirect_uri: `${publicUrl()}/api/lti/launch`,
      login_hint: people.student.sourcedId,
    });
    expect(a.state).not.toBe(b.state);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.nonce.length).toBeGreaterThanOrEqual(40);
  });

  it("refuses an unknown issuer, an unregistered deployment and a target on another site, keeping no state", async () => {
    const before = await db().ltiLaunchState.count();
    expect(await login({ iss: "https://unknown.example" })).toEqual({ ok: false, code: "unknownIssuer" });
    expect(await login({ client_id: "someone-else" })).toEqual({ ok: false, code: "unknownIssuer" });
    // once the platform is known, its portal may frame the refusal page (platform/security/frame-pass.ts)
    const frameAncestors = [platform.issuer];
    expect(await login({ lti_deployment_id: "dep-unknown" })).toEqual({
      ok: false,
      code: "unknownDeployment",
      frameAncestors,
    });
    expect(await login({ target_link_uri: "https://evil.example/lti/activities/x" })).toEqual({
      ok: false,
      code: "badRequest",
      frameAncestors,
    });
    expect(await login({ login_hint: "" })).toEqual({ ok: false, code: "badRequest" });
    expect(await db().ltiLaunchState.count()).toBe(before);
  });
});

describe("the launch", () => {
  it("remembers a launch's line item and context members for the person, activity and link; a launch without them, or into another school's activity, keeps nothing", async () => {
    const links = () => db().ltiServiceLink.findMany({ where: { userId: people.student.id } });
    const before = (await links()).length;
    expect(await launch()).toMatchObject({ ok: true });
    // another school's activity: the student lands on their home, and nothing is kept for it
    const claims = platform.serviceClaims({ lineitem: "x", context: "c" });
    expect(await launch({ targetLinkUri: target(otherSchools), claims })).toMatchObject({
      ok: true,
      landing: "/dashboard/student/home",
    });
    expect((await links()).length).toBe(before);
    const context = `c-${randomUUID()}`;
    expect(await launch({ claims: platform.serviceClaims({ lineitem: "unit-1", context }) })).toMatchObject({
      ok: true,
    });
    const [kept] = (await links()).filter((l) => l.contextId === context);
    expect(kept).toMatchObject({
      activityId: activity,
      subject: people.student.sourcedId,
      lineitem: platform.lineitemUrl("unit-1"),
      agsScopes: expect.arrayContaining(["https://purl.imsglobal.org/spec/lti-ags/scope/score"]),
      membershipsUrl: expect.stringMatching(/\/memberships$/),
    });
  });

  it("accepts a student's launch into a self-mode activity and a teacher's onto the activity's console", async () => {
    expect(await launch()).toEqual({
      ok: true,
      user: { id: people.student.id, role: "student" },
      academyId: expect.any(String),
      landing: `/dashboard/student/activities/solo/${activity}`,
      frameAncestors: [platform.issuer], // the portal's origins (its issuer's and auth URL's: one here)
    });
    expect(await launch({ targetLinkUri: target(guided) })).toMatchObject({
      ok: true,
      landing: `/dashboard/student/activities/session/${guided}`,
    });
    expect(
      await launch({
        sub: people.teacher.sourcedId.toUpperCase(), // sourcedIds compare case-insensitively (stored lower-case)
        roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
      }),
    ).toMatchObject({
      ok: true,
      user: { id: people.teacher.id, role: "teacher" },
      landing: `/dashboard/teacher/activities/guide/${activity}`,
    });
    // a link naming no activity of the person's school: their home
    expect(await launch({ targetLinkUri: target(randomUUID()) })).toMatchObject({
      ok: true,
      landing: "/dashboard/student/home",
    });
  });

  const refusals: [string, string, () => ReturnType<typeof launch>][] = [
    ["a signature by a key the platform's JWKS does not hold", "badSignature", () => launch({ foreignKey: true })],
    ["a token of another issuer", "unknownIssuer", () => launch({ claims: { iss: "https://other-portal.example" } })],
    ["a token for another client", "wrongAudience", () => launch({ claims: { aud: "another-tool", azp: undefined } })],
    [
      "several audiences and azp naming another client",
      "wrongAudience",
      () => launch({ claims: { aud: [platform.clientId, "another-tool"], azp: "another-tool" } }),
    ],
    [
      "an expired token",
      "expired",
      () => launch({ claims: { exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 400 } }),
    ],
    ["a token issued long ago", "expired", () => launch({ claims: { iat: Math.floor(Date.now() / 1000) - 3600 } })],
    ["a nonce not the login's", "badNonce", () => launch({}, { nonce: "another-nonce" })],
    ["a browser that did not start the login", "stateMismatch", () => launch({}, { bound: false })],
    ["an unregistered deployment", "unknownDeployment", () => launch({ deploymentId: "dep-unknown" })],
    ["no deployment id", "missingClaims", () => launch({ claims: { [`${LTI}/deployment_id`]: undefined } })],
    ["no resource link", "missingClaims", () => launch({ claims: { [`${LTI}/resource_link`]: undefined } })],
    ["no roles", "missingClaims", () => launch({ claims: { [`${LTI}/roles`]: undefined } })],
    ["no message type", "missingClaims", () => launch({ claims: { [`${LTI}/message_type`]: undefined } })],
    ["no sub", "missingClaims", () => launch({ claims: { sub: undefined } })],
    [
      "another message type",
      "wrongMessage",
      () => launch({ claims: { [`${LTI}/message_type`]: "LtiSubmissionReviewRequest" } }),
    ],
    ["another LTI version", "wrongMessage", () => launch({ claims: { [`${LTI}/version`]: "1.1" } })],
    ["a person nobody imported", "unknownPerson", () => launch({ sub: randomUUID() })],
    ["a person of another academy", "otherAcademy", () => launch({ sub: people.foreign.sourcedId })],
    ["a disabled account", "userDisabled", () => launch({ sub: people.disabled.sourcedId })],
  ];
  it.each(refusals)("refuses %s (%s) and changes nothing", async (_what, code, attempt) => {
    const before = await counts();
    expect(await attempt()).toMatchObject({ ok: false, code });
    expect(await counts()).toEqual(before);
  });

  it("refuses a replayed state (and so its nonce): the second post of the same form", async () => {
    const started = await login();
    if (!started.ok) throw new Error("refused");
    const idToken = await platform.idToken(spec(), started.nonce);
    const form = { idToken, state: started.state, stateBound: true };
    expect(await verifyLaunch(form)).toMatchObject({ ok: true });
    expect(await verifyLaunch(form)).toEqual({ ok: false, code: "replayed" });
  });

  it("refuses a state past its lifetime", async () => {
    const started = await login();
    if (!started.ok) throw new Error("refused");
    await db().ltiLaunchState.updateMany({
      data: { expiresAt: new Date(Date.now() - 1000) },
      where: { nonce: started.nonce },
    });
    const idToken = await platform.idToken(spec(), started.nonce);
    expect(await verifyLaunch({ idToken, state: started.state, stateBound: true })).toEqual({
      ok: false,
      code: "replayed",
    });
  });

  it("refuses a post without a token or state", async () => {
    expect(await verifyLaunch({ idToken: null, state: "x", stateBound: true })).toEqual({
      ok: false,
      code: "badRequest",
    });
    expect(await verifyLaunch({ idToken: "x", state: undefined, stateBound: true })).toEqual({
      ok: false,
      code: "badRequest",
    });
  });
});
