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
import { SESSION_ENDED } from "@/features/activities/server/session-events";
import { endSession, goToScene, startSession, touchPresence } from "@/features/play/server/session-commands";
import { changeMode } from "@/features/activities/server/commands";
import { applyRollover } from "@/features/rostering/server/rollover-commands";
import { MARKS_WRITTEN } from "@/features/results/server/mark-events";
import { markResponse } from "@/features/results/server/mark-commands";
import { markInput } from "@/features/results/shared/mark-schema";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
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
  type ReceivedScore,
  SCORE_TYPE,
  scoreProblems,
  startLtiPlatform,
} from "../../../tests/support/lti-platform";
import { registrationOf, until } from "../../../tests/support/lti-setup";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

// one platform per academy (an issuer and client id name one academy): each test starts its own
const platforms: LtiPlatformEmulator[] = [];

/**
 * A student of `school` (seat `number` of class 1-1) with a sourcedId, launched (as a launch remembers it) into
 * `activity` with a line item.
 */
async function launchStudent(
  platform: LtiPlatformEmulator,
  platformId: string,
  school: string,
  activity: string,
  number = 1,
) {
  const tag = uniqueTag();
  const student = await createUser(db(), {
    role: "student",
    email: `s-${tag}@t.example`,
    schoolId: school,
    student: { grade: 1, className: "1", number },
  });
  const sub = `stu-${tag}`;
  await db().user.update({ where: { id: student.id }, data: { sourcedId: sub } });
  const lineitem = `li-${tag}`;
  const services = servicesOf({
    sub,
    "https://purl.imsglobal.org/spec/lti/claim/resource_link": { id: `link-${tag}` },
    ...platform.serviceClaims({ lineitem }),
  })!;
  await rememberServiceLink({ platformId, userId: student.id, activityId: activity }, services);
  const link = await db().ltiServiceLink.findFirstOrThrow({ where: { userId: student.id, activityId: activity } });
  const received = () => platform.scores.filter((r) => r.lineitem === lineitem);
  return { student: student.id, sub, link: link.id, received };
}

/**
 * An academy registered with the emulator, a student launched into a self-paced activity (or a live one: `guide`) of
 * one keyed scene (and its free-text scene, without a key: `text`) with a line item of their own.
 */
async function setUp(shape: { text?: boolean; mode?: "self" | "guide" } = {}) {
  const platform = await startLtiPlatform({ toolUrl: publicUrl(), toolJwks });
  platforms.push(platform);
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `S${tag}`, nameKana: "えす" });
  const school = (await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" })).id;
  await setLtiPlatform(academy.id, { ...registrationOf(platform), identityClaim: "sub" }, { via: "cli" });
  const registered = await db().ltiPlatform.findUniqueOrThrow({ where: { academyId: academy.id } });
  const activity = (
    await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: school,
      mode: shape.mode ?? "self",
    })
  ).id;
  const scenes = await db().activityScene.findMany({ where: { activityId: activity }, orderBy: { position: "asc" } });
  const choice = scenes.find((s) => s.type === "single_choice")!;
  const text = scenes.find((s) => s.type === "free_text")!;
  const kept = shape.text ? [choice.id, text.id] : [choice.id];
  await db().activityScene.deleteMany({ where: { activityId: activity, id: { notIn: kept } } });
  // a key: "clear" is the right answer
  const content = choice.content as { options: { id: string; correct?: boolean }[] };
  const options = content.options.map((o) => ({ ...o, correct: o.id === "clear" }));
  await db().activityScene.update({ where: { id: choice.id }, data: { content: { ...content, options } } });
  const launched = await launchStudent(platform, registered.id, school, activity);
  const teacher = await createUser(db(), { role: "teacher", email: `t-${tag}@t.example`, schoolId: school });
  return {
    platform,
    academyId: academy.id,
    school,
    platformId: registered.id,
    ctx: { schoolId: school as AuthorizedSchoolId, actorId: teacher.id },
    activity,
    scene: choice.id,
    textScene: text.id,
    ...launched,
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

const textAnswer = (s: { activity: string; textScene: string }, mode: "self" | "guide" = "self") => ({
  activityId: s.activity,
  sceneId: s.textScene,
  answer: { text: "とけて見えなくなった" },
  clientRevision: 1,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode,
});

/** The bodies the platform accepted (200) on a line item, in order. */
const accepted = (received: () => { status: number; body: Record<string, unknown> }[]) =>
  received()
    .filter((r) => r.status === 200)
    .map((r) => r.body);

/** After the live session `sessionId` ended: the platform accepted one score for `s`, none of one point got, at the end. */
async function expectScoredAtEnd(s: { sub: string; received: () => ReceivedScore[] }, sessionId: string) {
  const endedAt = (await db().guideSession.findUniqueOrThrow({ where: { id: sessionId } })).endedAt!.toISOString();
  await until(async () => accepted(s.received).length === 1);
  expect(accepted(s.received)[0]).toEqual({
    userId: s.sub,
    scoreGiven: 0,
    scoreMaximum: 1,
    activityProgress: "Completed",
    gradingProgress: "FullyGraded",
    timestamp: endedAt,
  });
}

const mark = async (
  s: { ctx: { schoolId: AuthorizedSchoolId; actorId: string }; activity: string },
  responseId: string,
  verdict: "correct" | "partly" | "incorrect" | null,
  comment = "",
) => markResponse(s.ctx, markInput.parse({ activityId: s.activity, responseId, verdict, comment }));

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  await startScoreWorkers(await jobQueue(), 0.5, 1);
  for (const event of [ANSWERS_WRITTEN, MARKS_WRITTEN, SESSION_ENDED]) setEventWanted(event, true);
});
afterAll(async () => {
  for (const event of [ANSWERS_WRITTEN, MARKS_WRITTEN, SESSION_ENDED]) setEventWanted(event, false);
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

  it("a score equal to the one kept is not kept again: a late event that finds the same standing sends nothing more; a failed or parked one is tried anew", async () => {
    const s = await setUp();
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, 0, ms));
    const score = (given: number, t: Date) =>
      ({ scoreGiven: given, scoreMaximum: 1, gradingProgress: "PendingManual", timestamp: t }) as const;
    expect(await putScore(s.link, score(1, at(1000)))).toBe(true);
    await requestScoreDelivery(await jobQueue(), s.link);
    await until(async () => (await db().ltiScore.findUnique({ where: { linkId: s.link } }))?.state === "sent");
    // the same standing, found again by a later answer's event (the earlier one was worked after both were saved)
    expect(await putScore(s.link, score(1, at(2000)))).toBe(false);
    expect(await db().ltiScore.findUniqueOrThrow({ where: { linkId: s.link } })).toMatchObject({
      state: "sent",
      timestamp: at(1000),
    });
    await db().ltiScore.update({ where: { linkId: s.link }, data: { state: "failed" } });
    expect(await putScore(s.link, score(1, at(3000)))).toBe(true);
    expect(await putScore(s.link, score(0, at(4000)))).toBe(true);
    expect(s.received().map((r) => r.body.timestamp)).toEqual([at(1000).toISOString()]);
  });
});

describe("the teachers' marks and the live sessions' ends", () => {
  it("a teacher's mark on a launched student's free-text answer sends a new score: the key's verdict plus the mark's worth, FullyGraded once marked; a newer mark supersedes it, a removed one leaves it pending again", async () => {
    const s = await setUp({ text: true });
    expect(await saveAnswer(s.student, answer(s, "clear"))).toMatchObject({ ok: true });
    expect(await saveAnswer(s.student, textAnswer(s))).toMatchObject({ ok: true });
    // finished: the keyed scene counts, the unmarked free text waits for the teacher
    await until(async () => accepted(s.received).length === 1);
    expect(accepted(s.received)[0]).toMatchObject({ scoreGiven: 1, scoreMaximum: 1, gradingProgress: "PendingManual" });
    const response = await db().response.findFirstOrThrow({ where: { userId: s.student, sceneId: s.textScene } });
    const markedAt = async () =>
      (await db().responseMark.findUniqueOrThrow({ where: { responseId: response.id } })).updatedAt.toISOString();

    expect(await mark(s, response.id, "partly")).toMatchObject({ ok: true });
    await until(async () => accepted(s.received).length === 2);
    expect(accepted(s.received)[1]).toEqual({
      userId: s.sub,
      scoreGiven: 1.5,
      scoreMaximum: 2,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      timestamp: await markedAt(),
    });
    for (const r of s.received()) expect(scoreProblems(r.body)).toEqual([]);

    // the teacher changes their mind: the newer mark's score replaces the one sent
    expect(await mark(s, response.id, "incorrect")).toMatchObject({ ok: true });
    await until(async () => accepted(s.received).length === 3);
    expect(accepted(s.received)[2]).toMatchObject({
      scoreGiven: 1,
      scoreMaximum: 2,
      gradingProgress: "FullyGraded",
      timestamp: await markedAt(),
    });
    expect(await db().ltiScore.findUniqueOrThrow({ where: { linkId: s.link } })).toMatchObject({
      scoreGiven: 1,
      scoreMaximum: 2,
      gradingProgress: "FullyGraded",
      state: "sent",
    });

    // a comment alone changes no score
    expect(await mark(s, response.id, "incorrect", "よく書けました")).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(accepted(s.received)).toHaveLength(3);

    // the mark removed: pending again, the keyed scene alone counts
    expect(await mark(s, response.id, null)).toMatchObject({ ok: true });
    await until(async () => accepted(s.received).length === 4);
    expect(accepted(s.received)[3]).toMatchObject({ scoreGiven: 1, scoreMaximum: 1, gradingProgress: "PendingManual" });
    const times = accepted(s.received).map((b) => Date.parse(b.timestamp as string));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("a mark before the student has finished sends nothing yet; their score counts it once they finish", async () => {
    const s = await setUp({ text: true });
    expect(await saveAnswer(s.student, textAnswer(s))).toMatchObject({ ok: true });
    const response = await db().response.findFirstOrThrow({ where: { userId: s.student, sceneId: s.textScene } });
    expect(await mark(s, response.id, "correct")).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(s.received()).toEqual([]);
    expect(await saveAnswer(s.student, answer(s, "cloudy"))).toMatchObject({ ok: true });
    await until(async () => accepted(s.received).length === 1);
    expect(accepted(s.received)[0]).toMatchObject({ scoreGiven: 1, scoreMaximum: 2, gradingProgress: "FullyGraded" });
  });

  it("when the teacher ends a live session, each launched participant with a line item gets a score of what they answered (a skipped keyed scene wrong), one who did not take part none; a later mark updates it", async () => {
    const s = await setUp({ text: true, mode: "guide" });
    const follower = await launchStudent(s.platform, s.platformId, s.school, s.activity, 2);
    const absent = await launchStudent(s.platform, s.platformId, s.school, s.activity, 3);
    expect(await startSession(s.ctx, s.activity)).toMatchObject({ ok: true });
    const session = await db().guideSession.findFirstOrThrow({ where: { activityId: s.activity, endedAt: null } });
    // the launched student skips the keyed scene and answers the free text; the follower only follows
    expect(await goToScene(s.ctx, s.activity, s.textScene)).toMatchObject({ ok: true });
    expect(await saveAnswer(s.student, textAnswer(s, "guide"))).toMatchObject({ ok: true });
    await touchPresence(session.id, follower.student);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(s.received()).toEqual([]);

    expect(await endSession(s.ctx, s.activity)).toMatchObject({ ok: true });
    const endedAt = (await db().guideSession.findUniqueOrThrow({ where: { id: session.id } })).endedAt!.toISOString();
    await until(async () => accepted(s.received).length === 1 && accepted(follower.received).length === 1);
    expect(accepted(s.received)[0]).toEqual({
      userId: s.sub,
      scoreGiven: 0,
      scoreMaximum: 1,
      activityProgress: "Completed",
      gradingProgress: "PendingManual",
      timestamp: endedAt,
    });
    expect(accepted(follower.received)[0]).toEqual({
      userId: follower.sub,
      scoreGiven: 0,
      scoreMaximum: 1,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      timestamp: endedAt,
    });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(absent.received()).toEqual([]);

    // marked after the lesson: the score sent at its end is replaced
    const response = await db().response.findFirstOrThrow({ where: { userId: s.student, sceneId: s.textScene } });
    expect(await mark(s, response.id, "correct")).toMatchObject({ ok: true });
    await until(async () => accepted(s.received).length === 2);
    expect(accepted(s.received)[1]).toMatchObject({ scoreGiven: 1, scoreMaximum: 2, gradingProgress: "FullyGraded" });
  });

  it("a teacher who takes the activity out of live mode ends its session: its launched participant gets their score", async () => {
    const s = await setUp({ mode: "guide" });
    expect(await startSession(s.ctx, s.activity)).toMatchObject({ ok: true });
    const session = await db().guideSession.findFirstOrThrow({ where: { activityId: s.activity, endedAt: null } });
    await touchPresence(session.id, s.student);
    expect(await changeMode(s.ctx, s.activity, "standby")).toMatchObject({ ok: true });
    await expectScoredAtEnd(s, session.id);
  });
  it("the year-end rollover archives a live activity: its running session ends and its launched participant gets their score; a dry run sends nothing", async () => {
    const s = await setUp({ mode: "guide" });
    expect(await startSession(s.ctx, s.activity)).toMatchObject({ ok: true });
    const session = await db().guideSession.findFirstOrThrow({ where: { activityId: s.activity, endedAt: null } });
    await touchPresence(session.id, s.student);
    const { currentYear } = await db().school.findUniqueOrThrow({ where: { id: s.school } });
    const input = { schoolId: s.school, expectedYear: currentYear, topGrade: 3, classMoves: [] };

    expect(await applyRollover(s.ctx, input, { dryRun: true })).toMatchObject({ ok: true, data: { applied: false } });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(s.received()).toEqual([]);

    expect(await applyRollover(s.ctx, input)).toMatchObject({ ok: true, data: { applied: true, archived: 1 } });
    await expectScoredAtEnd(s, session.id);
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
