/**
 * POST /api/v1/answers has two servers: the production server's endpoint
 * (features/play/server/answer-endpoint.ts, in front of Next.js) and the Next.js route
 * handler (`next dev`). The same requests must get the same answers from
 * both: the production endpoint over a real HTTP socket, the route handler
 * with a NextRequest (its session read through a mocked next/headers).
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import { openSession } from "@/platform/auth/session-version-commands";
import { createAnswerEndpoint } from "@/features/play/server/answer-endpoint";
import { answerRoute } from "@/features/play/server/answer-route";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import {
  type PostCase,
  postToEndpoint,
  replyOf,
  routeRequest,
  serveEndpoint,
  testDatabaseUrl,
} from "../../../tests/support/helpers";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { twoSchools } from "../../../tests/support/two-schools";

const HOST = "school.example";
let server: http.Server;
let endpoint: ReturnType<typeof createAnswerEndpoint>;
let port: number;
const ids = {} as {
  student: string;
  disabled: string;
  activity: string;
  scene: string;
  foreignActivity: string;
  foreignScene: string;
};

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  ids.student = (
    await createUser(db(), {
      role: "student",
      email: `e1-${tag}@t.example`,
      schoolId: school.id,
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  ids.disabled = (
    await createUser(db(), {
      role: "student",
      email: `e2-${tag}@t.example`,
      schoolId: school.id,
      disabled: true,
      student: { grade: 1, className: "1", number: 2 },
    })
  ).id;
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const foreign = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: other.id,
    mode: "self",
  });
  const sceneOf = async (activityId: string) =>
    (await db().activityScene.findFirstOrThrow({ where: { activityId, type: "single_choice" }, select: { id: true } }))
      .id;
  Object.assign(ids, {
    activity: activity.id,
    scene: await sceneOf(activity.id),
    foreignActivity: foreign.id,
    foreignScene: await sceneOf(foreign.id),
  });

  const teacher = await createUser(db(), { role: "teacher", email: `e3-${tag}@t.example`, schoolId: school.id });
  const waiting = await openSession(teacher.id, "password", { ip: "192.0.2.9", userAgent: null }, true);
  waitingTeacher = await sessionCookieOf(teacher.id, "teacher", waiting.sv, waiting.sid!);

  endpoint = createAnswerEndpoint({
    databaseUrl: testDatabaseUrl(),
    authSecret: process.env.AUTH_SECRET!,
    production: true,
    poolSize: 2,
  });
  ({ server, port } = await serveEndpoint(endpoint));
});
afterAll(async () => {
  server?.close();
  await endpoint?.close();
  await db().$disconnect();
});

interface Case extends PostCase {
  who: "nobody" | "student" | "disabled" | "waitingTeacher";
}

/** A teacher's sign-in still waiting for its second factor (platform/auth/second-factor.ts). */
let waitingTeacher = "";
async function cookieOf(who: Case["who"]) {
  if (who === "waitingTeacher") return waitingTeacher;
  return who === "nobody" ? "" : sessionCookieOf(ids[who], "student");
}

async function viaEndpoint(c: Case) {
  return postToEndpoint(port, HOST, "/api/v1/answers", await cookieOf(c.who), c);
}

async function viaRoute(c: Case) {
  session.cookie = await cookieOf(c.who);
  return replyOf(await answerRoute(routeRequest(HOST, "/api/v1/answers", session.cookie, c)));
}

const answer = (patch: Record<string, unknown> = {}) =>
  JSON.stringify({
    activityId: ids.activity,
    sceneId: ids.scene,
    answer: { choice: "clear" },
    clientRevision: 1,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
    ...patch,
  });

describe("the production answer endpoint and the route handler answer alike", () => {
  const cases: [string, () => Case, number][] = [
    ["signed out", () => ({ who: "nobody", body: answer() }), 401],
    ["a disabled student", () => ({ who: "disabled", body: answer() }), 401],
    ["a teacher's sign-in waiting for its second factor", () => ({ who: "waitingTeacher", body: answer() }), 401],
    ["Origin: null", () => ({ who: "student", body: answer(), origin: "null" }), 403],
    ["another site's Origin", () => ({ who: "student", body: answer(), origin: "https://evil.example" }), 403],
    ["a body over 64 KB", () => ({ who: "student", body: answer({ answer: { choice: "x".repeat(70_000) } }) }), 413],
    ["not JSON", () => ({ who: "student", body: "{nope" }), 400],
    ["not an answer request", () => ({ who: "student", body: JSON.stringify({ activityId: "x" }) }), 400],
    [
      "an answer the scene does not allow",
      () => ({ who: "student", body: answer({ answer: { choice: "nope" } }) }),
      400,
    ],
    [
      "another school's activity",
      () => ({ who: "student", body: answer({ activityId: ids.foreignActivity, sceneId: ids.foreignScene }) }),
      404,
    ],
    ["a guide answer without a session", () => ({ who: "student", body: answer({ mode: "guide" }) }), 409],
    // a shared tablet: an answer queued by someone who signed out, sent with the next user's session
    [
      "an answer of another respondent than the session's",
      () => ({ who: "student", body: answer({ respondentId: ids.disabled }) }),
      401,
    ],
  ];
  for (const [name, make, status] of cases) {
    it(`${name}: ${status}`, async () => {
      const c = make();
      const [a, b] = [await viaEndpoint(c), await viaRoute(c)];
      expect(a.status).toBe(status);
      expect(b.status).toBe(status);
      expect(a.body).toEqual(b.body);
      expect(a.headers.get("cache-control")).toBe("no-store");
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    });
  }

  it("an answer naming its own respondent is stored as theirs", async () => {
    await db().response.deleteMany({ where: { userId: ids.student, sceneId: ids.scene } });
    expect(
      await viaEndpoint({ who: "student", body: answer({ respondentId: ids.student, clientRevision: 7 }) }),
    ).toMatchObject({ status: 200, body: { ok: true, revision: 7 } });
    expect(await db().response.count({ where: { userId: ids.student, sceneId: ids.scene } })).toBe(1);
    expect(await db().response.count({ where: { userId: ids.disabled } })).toBe(0);
  });

  it("a save, its retry and an older revision: stored once, the same replies from both", async () => {
    await db().response.deleteMany({ where: { userId: ids.student, sceneId: ids.scene } });
    const key = `k${uniqueTag()}${uniqueTag()}`;
    const first = await viaEndpoint({ who: "student", body: answer({ clientRevision: 3, idempotencyKey: key }) });
    expect(first).toMatchObject({ status: 200, body: { ok: true, revision: 3, stale: false } });
    const retry = await viaRoute({ who: "student", body: answer({ clientRevision: 3, idempotencyKey: key }) });
    expect(retry.body).toEqual(first.body);
    const older = { who: "student" as const, body: answer({ clientRevision: 2, answer: { choice: "cloudy" } }) };
    // not stored, and the reply says which answer is (the client shows it)
    expect((await viaEndpoint(older)).body).toEqual({ ...first.body, stale: true, answer: { choice: "clear" } });
    expect((await viaRoute(older)).body).toEqual({ ...first.body, stale: true, answer: { choice: "clear" } });
    expect(
      await db().response.findMany({
        where: { userId: ids.student, sceneId: ids.scene },
        select: { clientRevision: true, answer: true },
      }),
    ).toEqual([{ clientRevision: 3, answer: { choice: "clear" } }]);
  });
});
