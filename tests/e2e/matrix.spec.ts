/**
 * The access matrix over every page and route handler (server actions have
 * theirs in tests/repo/actions-access.integration.test.ts): each is
 * requested as a student, a teacher and a manager of an academy, and signed
 * out, with the ids of the own school, of another school of the same academy
 * and of another academy's school. Every outcome is exact: the expected
 * status (a 5xx or a streamed render error is a failure, never "no access"),
 * the exact redirect target, and for every allowed reply the content of the
 * school whose ids were asked for (its canary), so the rightful user's row is
 * the positive control of every refusal in the same test. No response body
 * may carry the canary of a school the user may not see (the manager may see
 * the sibling school's: it is in their academy).
 * A page or route handler without a row here fails the suite.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { craftPdf } from "../support/pdf-craft";
import { hashProjectorToken, newProjectorToken } from "../../features/play/server/projector-token";
import { createAcademy, createUser, uniqueTag } from "../../prisma/seed/factories";
import { BASE_URL, E2E_METRICS_TOKEN } from "./config";
import { e2eDb, e2eSecrets, TEST_PASSWORD } from "./db";
import { readFramePass } from "../../platform/security/frame-pass";
import { cookieOf } from "./cookies";
import {
  activityOf,
  fillIds,
  homeUrl,
  type Ids,
  ITEM,
  outcomeOfPage,
  type PageOutcome,
  type Reply,
  seedMatrixSchool,
  send,
  signinFrom,
  target,
  type Variant,
  type Who,
} from "./matrix-lib";
import { ROUTES } from "./routes";

// set by beforeAll, which Playwright may run more than once per worker (fully parallel files): fresh each time
let tag = "";
const CANARY = { own: "", sibling: "", foreign: "" };
const ids = {} as Record<Exclude<Variant, "mixed">, Ids>;
const cookies = {} as Record<Who, string>;
const userIds = {} as Record<Exclude<Who, "signedOut">, string>;
let PNG = new Uint8Array(new ArrayBuffer(0));
const ONE_PAGE_PDF = new Uint8Array(craftPdf({ pages: 1 }));
/** Projector tokens by `schoolId:guide` (beforeAll); `mixed` matches none: a garbage token. */
const projectorTokens = new Map<string, string>();
const projectorTokenOf = (v: Ids) => projectorTokens.get(`${v.schoolId}:${v.guide}`) ?? "Z".repeat(43);
/** The own teacher's deep linking request waiting for its pick (the picker's secret; beforeAll). */
let deepLinkRequest = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  tag = uniqueTag();
  PNG = new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: "blue" } })
      .png()
      .toBuffer(),
  );
  CANARY.own = `CANARYOWN${tag}`;
  CANARY.sibling = `CANARYSIB${tag}`;
  CANARY.foreign = `CANARYFOR${tag}`;
  const academy = await createAcademy(e2eDb(), { name: `行列学園${tag}`, nameKana: "ぎょうれつがくえん" });
  const other = await createAcademy(e2eDb(), { name: `他学園 ${CANARY.foreign}`, nameKana: "たがくえん" });
  const own = await seedMatrixSchool(academy.id, CANARY.own, "own", tag);
  ids.own = own.ids;
  ids.sibling = (await seedMatrixSchool(academy.id, CANARY.sibling, "sib", tag)).ids;
  ids.foreign = (await seedMatrixSchool(other.id, CANARY.foreign, "for", tag)).ids;
  // a live session runs in every guide activity, played as a game: "next scene" has a class to move, the game's
  // leaderboard a projector to show it on
  const sessions = [];
  for (const v of [ids.own, ids.sibling, ids.foreign])
    sessions.push(
      await e2eDb().guideSession.create({
        data: { activityId: v.guide, currentSceneId: v.guideScene, game: true },
        select: { id: true },
      }),
    );
  // each guide activity's first scene shows its school's image (the projector's image route reads only those)
  for (const v of [ids.own, ids.sibling, ids.foreign]) {
    const { content } = await e2eDb().activityScene.findUniqueOrThrow({
      where: { id: v.guideScene },
      select: { content: true },
    });
    await e2eDb().activityScene.update({
      where: { id: v.guideScene },
      data: { content: { ...(content as object), image: { id: v.image, alt: "図", width: 8, height: 8 } } },
    });
  }
  // projector links: the own and sibling sessions' (each opens its own session only), a foreign one whose lesson is over
  const hourAgo = new Date(Date.now() - 3_600_000);
  const ended = await e2eDb().guideSession.create({
    data: {
      activityId: ids.foreign.guide,
      currentSceneId: ids.foreign.guideScene,
      startedAt: hourAgo,
      endedAt: hourAgo,
    },
    select: { id: true },
  });
  for (const [v, sessionId] of [
    [ids.own, sessions[0]!.id],
    [ids.sibling, sessions[1]!.id],
    [ids.foreign, ended.id],
  ] as const) {
    const token = newProjectorToken();
    await e2eDb().projectorLink.create({ data: { sessionId, tokenHash: hashProjectorToken(token) } });
    projectorTokens.set(`${v.schoolId}:${v.guide}`, token);
  }
  const manager = await createUser(e2eDb(), {
    role: "manager",
    email: `mm-${tag}@test.example`,
    password: TEST_PASSWORD,
    academyId: academy.id,
    name: "行列 管理",
  });
  // the academy's LTI platform: the login initiation's row names it (nothing is fetched from it there)
  const ltiPlatform = await e2eDb().ltiPlatform.create({
    data: {
      ...{ academyId: academy.id, issuer: `https://portal-${tag}.example`, clientId: "matrix" },
      ...{ deploymentIds: ["dep-1"], authLoginUrl: `https://portal-${tag}.example/auth` },
      ...{ tokenUrl: `https://portal-${tag}.example/token`, jwksUrl: `https://portal-${tag}.example/jwks` },
    },
  });
  // a deep linking request of the own teacher, as a launch keeps it (features/lti/server/deep-link.ts)
  deepLinkRequest = randomBytes(32).toString("base64url");
  await e2eDb().ltiDeepLinkRequest.create({
    data: {
      ...{ tokenHash: createHash("sha256").update(deepLinkRequest).digest("base64url"), userId: own.teacher.id },
      ...{ platformId: ltiPlatform.id, deploymentId: "dep-1", returnUrl: `https://portal-${tag}.example/return` },
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  userIds.student = own.student.id;
  userIds.teacher = own.teacher.id;
  userIds.manager = manager.id;
  cookies.student = await cookieOf(browser, own.student.email!);
  cookies.teacher = await cookieOf(browser, own.teacher.email!);
  cookies.manager = await cookieOf(browser, manager.email!);
  cookies.signedOut = "";
});

/** The ids a variant puts into a path: `mixed` names the own school with the sibling school's activity and student. */
const idsOf = (variant: Variant): Ids =>
  variant === "mixed" ? { ...ids.sibling, schoolId: ids.own.schoolId } : ids[variant];

/** No data `who` may not see in what they got (the manager may see the sibling school of their academy; signed out sees no school). */
function expectNoCanary(who: Who, reply: Reply, what: string) {
  expect(reply.body.includes(CANARY.foreign), `${what}: another academy's data reached ${who}`).toBe(false);
  if (who !== "manager")
    expect(reply.body.includes(CANARY.sibling), `${what}: another school's data reached ${who}`).toBe(false);
  if (who === "signedOut")
    expect(reply.body.includes(CANARY.own), `${what}: a school's data reached a signed-out request`).toBe(false);
}

const WHO: Who[] = ["student", "teacher", "manager", "signedOut"];

// ------------------------------------------------------------------ pages

function fill(pattern: string, v: Ids): string {
  return fillIds(pattern.replace("[token]", "Z".repeat(43)), {
    schoolId: v.schoolId,
    activityId: v[activityOf(pattern)],
    studentId: v.studentId,
  });
}
/** What an allowed page must show of the school its ids name: the student, else the activity, else the school itself (area pages without ids: anything of the own school). */
function itemShown(pattern: string): RegExp {
  if (pattern.includes("[studentId]")) return new RegExp(`(${ITEM.student}|${ITEM.nickname})`);
  if (pattern.includes("[activityId]")) return new RegExp(ITEM[activityOf(pattern)]);
  if (pattern.includes("[schoolId]")) return new RegExp(ITEM.school);
  return /-[A-Z]+/;
}

interface Expected {
  outcome: PageOutcome;
  /** a redirect's exact target */
  to?: string;
  /** an allowed page shows this school's data (its canary) */
  shows?: "own" | "sibling";
}

function expectedPage(area: string, pattern: string, pathname: string, who: Who, variant: Variant): Expected {
  if (pattern === "/dashboard") return { outcome: "redirected", to: homeUrl("student") }; // the proxy: the student home, whose guard sends others on
  // the sign-in page sends a signed-in user to their home
  if (pattern === "/" || pattern === "/signin")
    return who === "signedOut" ? { outcome: "allowed" } : { outcome: "redirected", to: homeUrl(who) };
  if (area === "public") return { outcome: "allowed" };
  if (who === "signedOut") return { outcome: "redirected", to: signinFrom(pathname) };
  if (who !== area) return { outcome: "redirected", to: homeUrl(who) };
  const onlySchool = !pattern.includes("[activityId]") && !pattern.includes("[studentId]");
  if (variant === "own" || (variant === "mixed" && onlySchool)) return { outcome: "allowed", shows: "own" };
  if (variant === "sibling" && who === "manager" && pattern.includes("[schoolId]"))
    return { outcome: "allowed", shows: "sibling" };
  return { outcome: "no access" };
}

for (const route of ROUTES) {
  const variants: Variant[] = !route.pattern.includes("[")
    ? ["own"]
    : route.pattern.includes("[schoolId]")
      ? ["own", "sibling", "foreign", "mixed"]
      : ["own", "sibling", "foreign"];
  test(`page ${route.pattern}`, async () => {
    test.setTimeout(90_000);
    const seen: string[] = [];
    for (const who of WHO) {
      for (const variant of variants) {
        const pathname = route.pattern.includes("[") ? fill(route.pattern, idsOf(variant)) : route.path;
        const reply = await send(cookies[who], pathname);
        const expected = expectedPage(route.area, route.pattern, pathname, who, variant);
        const what = `${who} → ${pathname} (${variant})`;
        expect(outcomeOfPage(reply), `${what}: status ${reply.status}`).toBe(expected.outcome);
        if (expected.to) expect(target(reply), what).toBe(expected.to);
        // the positive control: the rightful user sees the asked school's data, so no refusal in this test comes from a broken page
        if (expected.shows && route.showsSchool !== false) {
          const item = new RegExp(`${CANARY[expected.shows]}${itemShown(route.pattern).source}`);
          expect(item.test(reply.body), `${what}: the page does not show the item its ids name (${item.source})`).toBe(
            true,
          );
        }
        if (expected.outcome === "allowed" && route.marker)
          expect(reply.body.includes(route.marker), `${what}: the page's own content (${route.marker})`).toBe(true);
        expectNoCanary(who, reply, what);
        seen.push(`${who}/${variant}:${expected.outcome}`);
      }
    }
    // every area page has its rightful user's row with the own school's ids (the control of this test)
    if (route.area !== "public") expect(seen).toContain(`${route.area}/own:allowed`);
  });
}

// ------------------------------------------------------------------ route handlers

interface HandlerRow {
  /** The route.ts file under app/. */
  file: string;
  /** The request each variant makes as `who` (manager requests name the school), and the statuses expected. */
  request: (
    v: Ids,
    who: Who,
  ) => { method?: string; path: string; body?: string; stream?: boolean; headers?: Record<string, string> };
  variants: Variant[];
  expected: (who: Who, variant: Variant) => number;
  /** What a success (200, or the one redirect) carries: the control that the handler works and serves the asked school's data. */
  ok: (reply: Reply, who: Who, variant: Variant) => void;
}

const CODE_OF: Record<number, string> = {
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  410: "NOT_FOUND",
};
const staffOnly = (who: Who, variant: Variant) =>
  who === "signedOut"
    ? 401
    : who === "student"
      ? 403
      : variant === "own" || (variant === "sibling" && who === "manager")
        ? 200
        : 404;
const withSchool = (v: Ids, who: Who) => (who === "manager" ? `?school=${v.schoolId}` : "");
/** The school whose data a 200 of `variant` must carry. */
const canaryOf = (variant: Variant) => (variant === "sibling" ? CANARY.sibling : CANARY.own);
const showsSchool = (reply: Reply, _who: Who, variant: Variant) => expect(reply.body).toContain(canaryOf(variant));
const liveState = (reply: Reply) => expect(reply.body).toMatch(/"status":"(idle|running|ended)"|"sceneId"/);

const HANDLERS: HandlerRow[] = [
  {
    file: "api/auth/[...nextauth]/route.ts",
    // next-auth's own endpoints: the session endpoint is the one that returns data
    request: () => ({ path: "/api/auth/session" }),
    variants: ["own"],
    expected: () => 200,
    ok: (reply, who) => {
      if (who === "signedOut") expect(reply.body).toBe("null");
      else expect(JSON.parse(reply.body)).toMatchObject({ user: { id: userIds[who], role: who } });
    },
  },
  {
    file: "auth/ended/route.ts",
    request: () => ({ path: "/auth/ended?reason=userDisabled" }),
    variants: ["own"],
    expected: () => 307,
    // a session that still works is sent home untouched (a GET signs nobody out); without one, to /signin
    ok: (reply, who) =>
      expect(target(reply)).toBe(new URL(who === "signedOut" ? "/signin" : `/dashboard/${who}/home`, BASE_URL).href),
  },
  {
    // operations: the same answer for everyone, signed in or not, and nothing but the checks' states
    file: "healthz/route.ts",
    request: () => ({ path: "/healthz" }),
    variants: ["own"],
    expected: () => 200,
    ok: (reply) => expect(JSON.parse(reply.body)).toEqual({ status: "ok" }),
  },
  {
    file: "readyz/route.ts",
    request: () => ({ path: "/readyz" }),
    variants: ["own"],
    expected: () => 200,
    ok: (reply) =>
      expect(JSON.parse(reply.body)).toEqual({ status: "ok", database: "ok", migrations: "current", live: "ok" }),
  },
  {
    // the bearer token decides, not a session: each role here sends it, signed out sends none (the refusals: metrics.spec.ts)
    file: "metrics/route.ts",
    request: (_v, who) => ({
      path: "/metrics",
      headers: who === "signedOut" ? {} : { Authorization: `Bearer ${E2E_METRICS_TOKEN}` },
    }),
    variants: ["own"],
    expected: (who) => (who === "signedOut" ? 401 : 200),
    ok: (reply) => {
      expect(reply.contentType).toMatch(/^text\/plain/);
      expect(reply.body).toContain("# TYPE http_requests_total counter");
    },
  },
  {
    // LTI (features/lti): the tool's public keys, the same for everyone and never a private part
    file: "api/lti/jwks/route.ts",
    request: () => ({ path: "/api/lti/jwks" }),
    variants: ["own"],
    expected: () => 200,
    ok: (reply) => {
      const { keys } = JSON.parse(reply.body) as { keys: Record<string, unknown>[] };
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
        expect(key).not.toHaveProperty("d");
      }
    },
  },
  {
    // a registered platform's login initiation: off to its auth URL with a state and nonce, whoever is signed in here
    file: "api/lti/login/route.ts",
    request: () => ({
      path: `/api/lti/login?${new URLSearchParams({
        iss: `https://portal-${tag}.example`,
        login_hint: "someone",
        target_link_uri: `${BASE_URL}/lti/activities/x`,
        client_id: "matrix",
      })}`,
    }),
    variants: ["own"],
    expected: () => 302,
    ok: (reply) => {
      const to = new URL(target(reply));
      expect(to.origin + to.pathname).toBe(`https://portal-${tag}.example/auth`);
      expect(to.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
      expect(to.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
    },
  },
  {
    // a launch post without a login started in this browser: the refusal page, whoever is signed in here, nobody signed
    // in; framed by the origin the post came from only (the platform is not known): here a sandboxed frame's post
    // (`Origin: null`), whose Referer names the portal's page
    file: "api/lti/launch/route.ts",
    request: () => ({
      method: "POST",
      path: "/api/lti/launch",
      body: "id_token=x.y.z&state=forged",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "null",
        Referer: "https://portal.example/courses/1",
      },
    }),
    variants: ["own"],
    expected: () => 303,
    ok: (reply) => {
      const to = new URL(target(reply));
      expect(to.origin + to.pathname).toBe(`${BASE_URL}/lti/refused`);
      expect(to.searchParams.get("reason")).toBe("stateMismatch");
      expect(readFramePass(to.searchParams.get("f"), e2eSecrets().AUTH_SECRET)).toEqual(["https://portal.example"]);
    },
  },
  {
    // a deep linking pick: only the teacher whose request it is, of an activity of their school, gets the page that
    // posts the signed response to the portal (once: the own variant comes last); the others go to the refusal page
    file: "api/lti/deep-link/route.ts",
    request: (v) => ({
      method: "POST",
      path: "/api/lti/deep-link",
      body: `request=${deepLinkRequest}&activity=${v.self}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE_URL },
    }),
    variants: ["sibling", "foreign", "own"],
    expected: (who, variant) => (who === "teacher" && variant === "own" ? 200 : 303),
    ok: (reply, who) => {
      if (reply.status === 303)
        return expect(target(reply)).toBe(
          `${BASE_URL}/lti/refused?reason=${who === "teacher" ? "otherActivity" : "pickExpired"}`,
        );
      expect(reply.contentType).toMatch(/^text\/html/);
      expect(reply.body).toContain(`action="https://portal-${tag}.example/return"`);
      expect(reply.body).toMatch(/name="JWT" value="[\w-]+\.[\w-]+\.[\w-]+"/);
    },
  },
  {
    file: "api/students/sheets/route.ts",
    // the school named (a manager's print of the rollover's reissued cards; a teacher's own school or none)
    request: (v) => ({
      method: "POST",
      path: "/api/students/sheets",
      body: JSON.stringify({ ids: v.studentId, schoolId: v.schoolId }),
    }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) =>
      who === "signedOut"
        ? 401
        : who === "teacher"
          ? variant === "own"
            ? 200
            : 403
          : who === "manager"
            ? variant === "foreign"
              ? 403
              : 200
            : 403,
    ok: (reply) => {
      expect(reply.contentType).toMatch(/^application\/pdf/);
      expect(reply.body.startsWith("%PDF-")).toBe(true);
    },
  },
  {
    file: "api/v1/answers/route.ts",
    // the school's student already answered this scene (revision 1): the own student's repeat is acknowledged and changes nothing
    request: (v) => ({
      method: "POST",
      path: "/api/v1/answers",
      body: JSON.stringify({
        activityId: v.self,
        sceneId: v.selfScene,
        answer: { seen: true },
        clientRevision: 1,
        idempotencyKey: `matrix-${tag}`,
        mode: "self",
      }),
    }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) =>
      who === "signedOut" ? 401 : who === "manager" ? 403 : who === "student" && variant === "own" ? 200 : 404,
    ok: (reply) => expect(JSON.parse(reply.body)).toMatchObject({ ok: true, revision: 1 }),
  },
  {
    file: "api/v1/exports/[activityId]/results/route.ts",
    request: (v, who) => ({ path: `/api/v1/exports/${v.self}/results${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly,
    ok: showsSchool,
  },
  {
    file: "api/v1/exports/[activityId]/responses/route.ts",
    request: (v, who) => ({ path: `/api/v1/exports/${v.self}/responses${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly,
    ok: showsSchool,
  },
  {
    file: "api/v1/exports/[activityId]/xapi/route.ts",
    request: (v, who) => ({ path: `/api/v1/exports/${v.self}/xapi${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly,
    // the activity's xAPI statements as JSON lines (none made here: no LRS), never another school's
    ok: (reply) => {
      expect(reply.contentType).toMatch(/^application\/x-ndjson/);
      for (const line of reply.body.split("\n").filter(Boolean)) expect(JSON.parse(line)).toHaveProperty("actor");
    },
  },
  {
    file: "api/v1/exports/[activityId]/activity/route.ts",
    request: (v, who) => ({ path: `/api/v1/exports/${v.self}/activity${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly,
    // the activity as a file: its title (with the canary), never the school's name nor an answer
    ok: (reply, who, variant) => {
      showsSchool(reply, who, variant);
      expect(reply.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(reply.body)).toMatchObject({ format: "manabiya-activity", version: 1 });
      expect(reply.body).not.toContain(`${canaryOf(variant)}${ITEM.school}`);
      expect(reply.body).not.toContain(ITEM.answer);
    },
  },
  {
    file: "api/v1/furigana/route.ts",
    // staff ask for readings with the school named (the roster's readings of names: tests/e2e/furigana.spec.ts)
    request: (v) => ({
      method: "POST",
      path: "/api/v1/furigana",
      body: JSON.stringify({ text: "行列さんを見て", schoolId: v.schoolId }),
    }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) =>
      who === "signedOut"
        ? 401
        : who === "student"
          ? 403
          : variant === "own" || (variant === "sibling" && who === "manager")
            ? 200
            : 403,
    ok: (reply) =>
      expect(JSON.parse(reply.body)).toMatchObject({
        ok: true,
        data: {
          proposals: [
            { base: "行列", reading: "ぎょうれつ" },
            { base: "見", reading: "み", source: "dictionary" },
          ],
        },
      }),
  },
  {
    // an upload names the school (as a manager must); any school out of the actor's scope is refused before the body is read
    file: "api/v1/images/route.ts",
    request: (v) => ({
      method: "POST",
      path: `/api/v1/images?school=${v.schoolId}`,
      body: PNG,
      headers: { "Content-Type": "image/png", Origin: BASE_URL },
    }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) =>
      who === "signedOut"
        ? 401
        : who === "student"
          ? 403
          : variant === "own" || (variant === "sibling" && who === "manager")
            ? 200
            : 403,
    ok: (reply) =>
      expect(JSON.parse(reply.body)).toMatchObject({
        ok: true,
        data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), width: 16, height: 16 },
      }),
  },
  {
    // a PDF's pages as scenes: staff for an activity of their scope; a version nobody has means the pages are drawn and
    // nothing is added (the answer's last line: conflict), so the matrix changes no activity
    file: "api/v1/activities/[id]/slides/route.ts",
    request: (v, who) => ({
      method: "POST",
      path: `/api/v1/activities/${v.self}/slides${withSchool(v, who) ? `${withSchool(v, who)}&` : "?"}version=999999`,
      body: ONE_PAGE_PDF,
      headers: { "Content-Type": "application/pdf", Origin: BASE_URL },
    }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly,
    ok: (reply) =>
      expect(JSON.parse(reply.body.trim().split("\n").at(-1)!)).toEqual({ ok: false, problem: "conflict" }),
  },
  {
    // a OneRoster set for the manager's own academy only (the academy is the session's, never named in the request)
    file: "api/v1/roster/import/route.ts",
    request: () => ({
      method: "POST",
      path: "/api/v1/roster/import",
      body: "not a zip",
      headers: { "Content-Type": "application/zip", Origin: BASE_URL },
    }),
    variants: ["own"],
    expected: (who) => (who === "signedOut" ? 401 : who === "manager" ? 200 : 403),
    ok: (reply) =>
      expect(JSON.parse(reply.body)).toMatchObject({
        schools: [],
        applied: false,
        problems: [expect.objectContaining({ code: "zipInvalid" })],
      }),
  },
  {
    // the rollover with next year's set: a school of the manager's academy only (another academy's is 404 like an unknown id); without apply=1 nothing changes
    file: "api/v1/rollover/[schoolId]/route.ts",
    request: (v) => ({
      method: "POST",
      path: `/api/v1/rollover/${v.schoolId}?expectedYear=2026&topGrade=3`,
      body: "not a zip",
      headers: { "Content-Type": "application/zip", Origin: BASE_URL },
    }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) =>
      who === "signedOut" ? 401 : who !== "manager" ? 403 : variant === "foreign" ? 404 : 200,
    ok: (reply) =>
      expect(JSON.parse(reply.body)).toMatchObject({
        applied: false,
        roster: { schools: [], problems: [expect.objectContaining({ code: "zipInvalid" })] },
      }),
  },
  {
    // the academy's roster as a zip: one of its schools by id; another academy's school is 404 like an unknown id
    file: "api/v1/roster/export/route.ts",
    request: (v) => ({ path: `/api/v1/roster/export?school=${v.schoolId}` }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) =>
      who === "signedOut" ? 401 : who !== "manager" ? 403 : variant === "foreign" ? 404 : 200,
    ok: (reply) => {
      expect(reply.contentType).toBe("application/zip");
      expect(reply.body.startsWith("PK")).toBe(true);
    },
  },
  {
    // the academy's sign-in log as CSV to its managers only: the own school's teacher's sign-in, no other academy's people
    file: "api/v1/signin-log/export/route.ts",
    request: () => ({ path: "/api/v1/signin-log/export" }),
    variants: ["own"],
    expected: (who) => (who === "signedOut" ? 401 : who === "manager" ? 200 : 403),
    ok: (reply) => {
      expect(reply.contentType).toMatch(/^text\/csv/);
      expect(reply.body).toContain(`mt-own-${tag}@test.example`);
      expect(reply.body).not.toContain(`-for-${tag}@`);
    },
  },
  {
    // an image to anyone signed in to its school (a manager: their academy's schools); any other is 404 like an unknown id
    file: "api/v1/images/[id]/route.ts",
    request: (v) => ({ path: `/api/v1/images/${v.image}` }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) =>
      who === "signedOut" ? 401 : variant === "own" || (variant === "sibling" && who === "manager") ? 200 : 404,
    ok: (reply) => {
      expect(reply.contentType).toBe("image/png");
      expect(reply.body.startsWith("\x89PNG")).toBe(true);
    },
  },
  {
    file: "api/v1/live/[activityId]/state/route.ts",
    request: (v, who) => ({ path: `/api/v1/live/${v.guide}/state${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) =>
      who === "signedOut" ? 401 : variant === "own" || (variant === "sibling" && who === "manager") ? 200 : 404,
    ok: liveState,
  },
  {
    file: "api/v1/live/[activityId]/events/route.ts",
    request: (v, who) => ({ path: `/api/v1/live/${v.guide}/events${withSchool(v, who)}`, stream: true }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) =>
      who === "signedOut" ? 401 : variant === "own" || (variant === "sibling" && who === "manager") ? 200 : 404,
    ok: (reply) => expect(reply.body).toContain("event: state"),
  },
  {
    file: "api/v1/live/[activityId]/scene/route.ts",
    // the guide screen's "next": a manager names the school; another school's session is not running as far as the actor can see
    request: (v, who) => ({
      method: "POST",
      path: `/api/v1/live/${v.guide}/scene`,
      body: JSON.stringify({ sceneId: v.guideScene, ...(who === "manager" ? { schoolId: v.schoolId } : {}) }),
    }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) =>
      who === "signedOut"
        ? 401
        : who === "student"
          ? 403
          : variant === "own" || (variant === "sibling" && who === "manager")
            ? 200
            : who === "manager" && variant === "foreign"
              ? 403
              : 409,
    ok: (reply) => expect(JSON.parse(reply.body)).toEqual({ ok: true, data: null }),
  },
  {
    file: "api/v1/live/[activityId]/game/route.ts",
    // a game's leaderboard on the projector (here: the scene again, so the other rows see the same state): as "next"
    request: (v, who) => ({
      method: "POST",
      path: `/api/v1/live/${v.guide}/game`,
      body: JSON.stringify({ board: null, ...(who === "manager" ? { schoolId: v.schoolId } : {}) }),
    }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) =>
      who === "signedOut"
        ? 401
        : who === "student"
          ? 403
          : variant === "own" || (variant === "sibling" && who === "manager")
            ? 200
            : who === "manager" && variant === "foreign"
              ? 403
              : 409,
    ok: (reply) => expect(JSON.parse(reply.body)).toEqual({ ok: true, data: null }),
  },
  {
    // the token is the key, whoever asks (no sign-in): it opens its own session's projector only (own, sibling);
    // after the lesson (foreign) or a garbage token (mixed): 410, nothing
    file: "api/v1/projector/[token]/state/route.ts",
    request: (v) => ({ path: `/api/v1/projector/${projectorTokenOf(v)}/state` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (_who, variant) => (variant === "own" || variant === "sibling" ? 200 : 410),
    ok: (reply, _who, variant) => {
      const state = JSON.parse(reply.body) as { status: string; sceneId: string };
      expect(state).toMatchObject({
        status: "running",
        sceneId: ids[variant === "sibling" ? "sibling" : "own"].guideScene,
        results: null,
      });
      expect(reply.body).not.toContain(ids.own.schoolId);
    },
  },
  {
    file: "api/v1/projector/[token]/events/route.ts",
    request: (v) => ({ path: `/api/v1/projector/${projectorTokenOf(v)}/events`, stream: true }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (_who, variant) => (variant === "own" || variant === "sibling" ? 200 : 410),
    ok: (reply, _who, variant) =>
      expect(reply.body).toContain(`"sceneId":"${ids[variant === "sibling" ? "sibling" : "own"].guideScene}"`),
  },
  {
    // the lesson's images through its link (no sign-in); after the lesson (foreign) or a garbage token (mixed): 410
    file: "api/v1/projector/[token]/images/[id]/route.ts",
    request: (v) => ({ path: `/api/v1/projector/${projectorTokenOf(v)}/images/${v.image}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (_who, variant) => (variant === "own" || variant === "sibling" ? 200 : 410),
    ok: (reply) => {
      expect(reply.contentType).toBe("image/png");
      expect(reply.body.startsWith("\x89PNG")).toBe(true);
    },
  },
  {
    file: "api/v1/live/school/events/route.ts",
    request: () => ({ path: "/api/v1/live/school/events", stream: true }),
    variants: ["own"],
    expected: (who) => (who === "signedOut" ? 401 : who === "manager" ? 403 : 200),
    ok: (reply) => expect(reply.body).toContain("event: state"),
  },
];

function routeFiles(dir = "app", prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routeFiles(full, `${prefix}${name}/`));
    else if (name === "route.ts") out.push(`${prefix}${name}`);
  }
  return out;
}

test("every route handler has a row in the matrix", () => {
  expect(routeFiles().sort()).toEqual(HANDLERS.map((h) => h.file).sort());
});

for (const handler of HANDLERS) {
  test(`route ${handler.file}`, async () => {
    test.setTimeout(90_000);
    // nothing a handler is asked here may change anybody's answers
    const answers = () =>
      e2eDb().response.findMany({
        where: { activityId: { in: [ids.own.self, ids.sibling.self, ids.foreign.self] } },
        orderBy: { id: "asc" },
      });
    const before = await answers();
    let controls = 0;
    for (const who of WHO) {
      for (const variant of handler.variants) {
        const req = handler.request(idsOf(variant), who);
        const reply = await send(cookies[who], req.path, req);
        const what = `${who} → ${req.method ?? "GET"} ${req.path} (${variant})`;
        const status = handler.expected(who, variant);
        expect(reply.status, `${what}: got ${reply.status} ${reply.body.slice(0, 120)}`).toBe(status);
        const code = CODE_OF[status];
        // a refusal is the handler's own closed code (not a framework 404 of a route that is gone)
        if (code) expect(JSON.parse(reply.body), what).toMatchObject({ ok: false, code });
        // a success, or the handler's one redirect (307; 302 and 303 after the LTI form posts)
        if (status === 200 || status === 302 || status === 303 || status === 307) {
          handler.ok(reply, who, variant);
          controls++;
        }
        expectNoCanary(who, reply, what);
      }
    }
    // each handler serves someone (the positive control of its refusals)
    expect(controls).toBeGreaterThan(0);
    expect(await answers()).toEqual(before);
  });
}
