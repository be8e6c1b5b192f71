/**
 * Scores back to the portal (Assignment and Grade Services; features/lti/server/score-*.ts) against the platform
 * emulator over real HTTP (tests/support/lti-platform.ts: its token endpoint verifies our client assertion, each line
 * item's /scores keeps what it receives) and the job queue (pg-boss in the test database): a student launched with a
 * line item finishes the activity (the answers saved as the app saves them), and the platform receives the score,
 * also after answering 503; a 400 parks it where the manager sees it; a newer score replaces an older waiting one.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { publicUrl } from "@/platform/env";
import { jobQueue, setEventWanted, stopJobQueue } from "@/platform/queue/commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { ANSWERS_WRITTEN } from "@/features/play/server/answer-events";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { toolJwks } from "@/features/lti/server/keys";
import { setLtiPlatform } from "@/features/lti/server/platform-commands";
import { rememberServiceLink } from "@/features/lti/server/service-link-commands";
import { putScore } from "@/features/lti/server/score-commands";
import { academyScores } from "@/features/lti/server/score-queries";
import { requestScoreDelivery, startScoreWorkers } from "@/features/lti/server/score-queue";
import { servicesOf } from "@/features/lti/shared/claims";
import {
  type LtiPlatformEmulator,
  SCORE_TYPE,
  scoreProblems,
  startLtiPlatform,
} from "../../../tests/support/lti-platform";
import { oneSceneActivity, registrationOf, until } from "../../../tests/support/lti-setup";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";

// one platform per academy (an issuer and client id name one academy): each test starts its own
const platforms: LtiPlatformEmulator[] = [];

/**
 * An academy registered with the emulator, a student launched (as a launch remembers it) into a self-paced activity
 * of one keyed scene with a line item of their own.
 */
async function setUp() {
  const platform = await startLtiPlatform({ toolUrl: publicUrl(), toolJwks });
  platforms.push(platform);
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `S${tag}`, nameKana: "えす" });
  const school = (await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" })).id;
  await setLtiPlatform(academy.id, { ...registrationOf(platform), identityClaim: "sub" }, { via: "cli" });
  const registered = await db().ltiPlatform.findUniqueOrThrow({ where: { academyId: academy.id } });
  const student = await createUser(db(), {
    role: "student",
    email: `s-${tag}@t.example`,
    schoolId: school,
    student: { grade: 1, className: "1", number: 1 },
  });
  const sub = `stu-${tag}`;
  await db().user.update({ where: { id: student.id }, data: { sourcedId: sub } });
  const { activity, choice } = await oneSceneActivity(db(), school);
  // a key: "clear" is the right answer
  const content = choice.content as { options: { id: string; correct?: boolean }[] };
  const options = content.options.map((o) => ({ ...o, correct: o.id === "clear" }));
  await db().activityScene.update({ where: { id: choice.id }, data: { content: { ...content, options } } });
  const lineitem = `li-${tag}`;
  const services = servicesOf({
    sub,
    "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: `link-${tag}` },
    ...platform.serviceClaims({ lineitem }),
  })!;
  await rememberServiceLink({ platformId: registered.id, userId: student.id, activityId: activity }, services);
  const link = await db().ltiServiceLink.findFirstOrThrow({ where: { userId: student.id, activityId: activity } });
  const received = () => platform.scores.filter((r) => r.lineitem === lineitem);
  return {
    platform,
    received,
    academyId: academy.id,
    student: student.id,
    sub,
    activity,
    scene: choice.id,
    link: link.id,
  };
}

const answer = (s: { activity: string; scene: string }, choice: string) => ({
  activityId: s.activity,
  sceneId: s.scene,
  answer: { choice },
  clientRevision: 1,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "self" as const,
});

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  await startScoreWorkers(await jobQueue(), 0.5, 1);
  setEventWanted(ANSWERS_WRITTEN, true);
});
afterAll(async () => {
  setEventWanted(ANSWERS_WRITTEN, false);
  await stopJobQueue();
  for (const p of platforms) await p.close();
  await db().$disconnect();
});

describe("scores sent to the portal's line item", () => {
  it("a student who finishes the activity has their score received by the platform, also after it answered 503", async () => {
    const s = await setUp();
    s.platform.scoreStatus = (n) => (n === 0 ? 503 : 200);
    expect(await saveAnswer(s.student, answer(s, "clear"))).toMatchObject({ ok: true });
    await until(async () => (await db().ltiScore.findUnique({ where: { linkId: s.link } }))?.state === "sent");
    const got = s.received();
    expect(got.map((r) => r.status)).toEqual([503, 200]);
    for (const r of got) {
      expect(r.contentType).toBe(SCORE_TYPE);
      expect(scoreProblems(r.body)).toEqual([]);
    }
    const saved = await db().response.findFirstOrThrow({ where: { userId: s.student, sceneId: s.scene } });
    expect(got[1]!.body).toEqual({
      userId: s.sub,
      scoreGiven: 1,
      scoreMaximum: 1,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      timestamp: expect.any(String),
    });
    expect(new Date(got[1]!.body.timestamp as string).getTime()).toBeLessThanOrEqual(saved.updatedAt.getTime() + 1000);
    expect(await academyScores(s.academyId)).toEqual({ waiting: 0, sent: 1, failed: 0, lastError: null });
  });

  it("a score the platform refuses for good (400) is parked with its answer, and the manager sees it", async () => {
    const s = await setUp();
    s.platform.scoreStatus = () => 400;
    expect(await saveAnswer(s.student, answer(s, "cloudy"))).toMatchObject({ ok: true });
    const parked = await until(async () => {
      const row = await db().ltiScore.findUnique({ where: { linkId: s.link } });
      return row?.state === "parked" && row;
    });
    expect(parked.lastError).toMatch(/^400 /);
    // not tried again
    await new Promise((r) => setTimeout(r, 2_500));
    expect(s.received().map((r) => r.status)).toEqual([400]);
    expect(await academyScores(s.academyId)).toEqual({
      waiting: 0,
      sent: 0,
      failed: 1,
      lastError: expect.stringMatching(/^400 /),
    });
  });

  it("a newer score supersedes an older waiting one, and an older one never overwrites a newer", async () => {
    const s = await setUp();
    let open = false;
    s.platform.scoreStatus = () => (open ? 200 : 503);
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 29, 9, 0, 0, ms));
    const score = (given: number, t: Date) =>
      ({ scoreGiven: given, scoreMaximum: 4, gradingProgress: "FullyGraded", timestamp: t }) as const;
    expect(await putScore(s.link, score(1, at(1000)))).toBe(true);
    await requestScoreDelivery(await jobQueue(), s.link);
    await until(async () => s.received().length > 0);
    // while the first waits for the platform: a newer one, then one older than it
    expect(await putScore(s.link, score(3, at(3000)))).toBe(true);
    expect(await putScore(s.link, score(2, at(2000)))).toBe(false);
    open = true;
    await until(async () => (await db().ltiScore.findUnique({ where: { linkId: s.link } }))?.state === "sent");
    const accepted = s.received().filter((r) => r.status === 200);
    expect(accepted.map((r) => [r.body.scoreGiven, r.body.timestamp])).toEqual([[3, at(3000).toISOString()]]);
    expect(s.received().every((r) => r.body.scoreGiven !== 2)).toBe(true);
  });
});

describe("the launch's services", () => {
  it("only a line item with the score scope, or a membership URL, is kept; a launch naming neither keeps nothing", async () => {
    const { platform } = await setUp();
    const base = { sub: "s", "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: "l" } };
    expect(servicesOf(base)).toBeNull();
    const noScope = { ...base, "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": { lineitem: "https://p/li" } };
    expect(servicesOf(noScope)).toBeNull();
    expect(servicesOf({ ...base, ...platform.serviceClaims({ context: `c-${randomUUID()}` }) })).toMatchObject({
      lineitem: null,
      membershipsUrl: expect.stringMatching(/\/memberships$/),
    });
  });
});
