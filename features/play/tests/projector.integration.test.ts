/**
 * The projector view (docs/adr/0064-projector-links.md): a read-only link per running session
 * whose token is stored hashed, opens only that session, stops with the lesson or when revoked; the
 * answers it shows are anonymous unless names are on, and only the starred ones when the teacher
 * chooses.
 */
import { NextRequest } from "next/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addScene } from "@/features/activities/server/scene-commands";
import { db } from "@/platform/db";
import { DRAWING_COLORS } from "@/features/scenes/shared/drawing-limits";
import { env } from "@/platform/env";
import { storeImage } from "@/features/scenes/server/image-store";
import { subscribe } from "@/platform/notify/bus";
import { studentAnswerNow } from "@/features/play/server/grid-queries";
import { endSession, goToScene, setSessionFlags, startSession } from "@/features/play/server/session-commands";
import { projectorLinkOf, projectorState } from "@/features/play/server/projector-queries";
import { createProjectorLink, revokeProjectorLinks, setAnswerStar } from "@/features/play/server/projector-commands";
import { projectorEvents, projectorImage } from "@/features/play/server/projector-routes";
import { MAX_PROJECTOR_LINKS } from "@/features/play/shared/projector-schema";
import { hashProjectorToken } from "@/features/play/server/projector-token";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

const ids = {} as {
  school: string;
  other: string;
  teacher: string;
  otherTeacher: string;
  activity: string;
  second: string;
  foreign: string;
  scenes: string[];
  students: string[];
};
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
const otherCtx = () => ({ schoolId: ids.other as AuthorizedSchoolId, actorId: ids.otherTeacher });
const tokenOf = (path: string) => path.split("/").pop()!;
const answer = (sceneId: string, answer: Record<string, unknown>) => ({
  activityId: ids.activity,
  sceneId,
  answer,
  clientRevision: 1,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "guide" as const,
});

async function openLink(c = ctx(), activityId = ids.activity) {
  const opened = await createProjectorLink(c, activityId);
  if (!opened.ok) throw new Error(`no link: ${opened.code}`);
  return tokenOf(opened.data.path);
}

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const student = async (n: number) =>
    (
      await createUser(db(), {
        role: "student",
        email: `pj${n}-${tag}@t.example`,
        schoolId: school.id,
        name: `生徒 名前${n}`,
        nameKana: `せいと ${n}`,
        student: { grade: 3, className: "2", number: n },
      })
    ).id;
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const second = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const foreign = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: other.id,
    mode: "standby",
  });
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    activity: activity.id,
    second: second.id,
    foreign: foreign.id,
    teacher: (await createUser(db(), { role: "teacher", email: `pjt-${tag}@t.example`, schoolId: school.id })).id,
    otherTeacher: (await createUser(db(), { role: "teacher", email: `pjo-${tag}@t.example`, schoolId: other.id })).id,
    scenes: (
      await db().activityScene.findMany({
        where: { activityId: activity.id },
        orderBy: { position: "asc" },
        select: { id: true },
      })
    ).map((s) => s.id),
    students: [await student(1), await student(2), await student(3)],
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("projector links", () => {
  it("a link needs a running session of the school's activity; its token is stored only as its sha-256", async () => {
    expect(await createProjectorLink(ctx(), ids.activity)).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { session: ["notRunning"] },
    });
    expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    // another school's teacher cannot open one for it
    expect(await createProjectorLink(otherCtx(), ids.activity)).toMatchObject({ ok: false, code: "CONFLICT" });
    const token = await openLink();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db().projectorLink.findMany({
      where: { session: { activityId: ids.activity } },
      select: { tokenHash: true },
    });
    expect(rows).toEqual([{ tokenHash: hashProjectorToken(token) }]);
    expect(JSON.stringify(rows)).not.toContain(token);
    // the hash itself opens nothing
    expect(await projectorLinkOf(rows[0]!.tokenHash)).toBeNull();
    expect(await projectorLinkOf(token)).toMatchObject({ activityId: ids.activity, schoolId: ids.school });
  });

  it("a garbage, another session's or another school's token gives nothing about this session", async () => {
    for (const garbage of ["", "x", "a".repeat(43), "a".repeat(5000), "../../etc", "\u0000".repeat(43)]) {
      expect(await projectorLinkOf(garbage)).toBeNull();
      expect(await projectorState(garbage)).toMatchObject({ status: "ended" });
    }
    expect(await startSession(ctx(), ids.second)).toMatchObject({ ok: true });
    expect(await startSession(otherCtx(), ids.foreign)).toMatchObject({ ok: true });
    const secondLink = await projectorLinkOf(await openLink(ctx(), ids.second));
    const foreignLink = await projectorLinkOf(await openLink(otherCtx(), ids.foreign));
    expect(secondLink).toMatchObject({ activityId: ids.second });
    expect(foreignLink).toMatchObject({ activityId: ids.foreign, schoolId: ids.other });
    expect(secondLink?.sessionId).not.toBe((await projectorLinkOf(await openLink()))?.sessionId);
  });

  it("the projector's answers: counts, texts by arrival with no names and no ids; names while on; starred only when chosen", async () => {
    const [s1, s2, s3] = ids.students as [string, string, string];
    const choice = ids.scenes[2]!;
    const text = ids.scenes[4]!;
    const token = await openLink();
    expect(await goToScene(ctx(), ids.activity, choice)).toMatchObject({ ok: true });
    expect(await projectorState(token)).toMatchObject({
      status: "running",
      sceneId: choice,
      showResults: false,
      results: null,
    });
    expect(await setSessionFlags(ctx(), ids.activity, { showResults: true })).toMatchObject({ ok: true });
    for (const [s, c] of [
      [s1, "clear"],
      [s2, "cloudy"],
      [s3, "clear"],
    ] as const)
      expect(await saveAnswer(s, answer(choice, { choice: c }))).toMatchObject({ ok: true });
    expect(await projectorState(token)).toMatchObject({
      results: { total: 3, counts: { choice: { clear: 2, cloudy: 1 } }, names: null },
    });

    expect(await setSessionFlags(ctx(), ids.activity, { showNames: true, starredOnly: true })).toMatchObject({
      ok: true,
    });
    // a new scene: results, names and "starred only" start off
    expect(await goToScene(ctx(), ids.activity, text)).toMatchObject({ ok: true });
    expect(await projectorState(token)).toMatchObject({
      sceneId: text,
      showResults: false,
      showNames: false,
      starredOnly: false,
      results: null,
    });
    expect(await setSessionFlags(ctx(), ids.activity, { showResults: true })).toMatchObject({ ok: true });
    for (const [s, x] of [
      [s2, "とける"],
      [s1, "にごる"],
      [s3, "色がつく"],
    ] as const)
      expect(await saveAnswer(s, answer(text, { text: x }))).toMatchObject({ ok: true });
    const anonymous = await projectorState(token);
    expect(anonymous).toMatchObject({
      results: {
        answers: [
          { text: "とける", name: null },
          { text: "にごる", name: null },
          { text: "色がつく", name: null },
        ],
      },
    });
    const shown = JSON.stringify(anonymous);
    expect(shown).not.toContain("名前");
    for (const s of ids.students) expect(shown).not.toContain(s);

    expect(await setSessionFlags(ctx(), ids.activity, { showNames: true })).toMatchObject({ ok: true });
    expect(await projectorState(token)).toMatchObject({
      results: { answers: [{ name: "生徒 名前2" }, { name: "生徒 名前1" }, { name: "生徒 名前3" }] },
    });
    expect(await setSessionFlags(ctx(), ids.activity, { showNames: false })).toMatchObject({ ok: true });

    const responses = await db().response.findMany({
      where: { sceneId: text, userId: { in: [s1, s3] } },
      select: { id: true },
    });
    for (const r of responses)
      expect(await setAnswerStar(ctx(), ids.activity, r.id, true)).toEqual({ ok: true, data: null });
    // starring twice is the same star; another school cannot star
    expect(await setAnswerStar(ctx(), ids.activity, responses[0]!.id, true)).toEqual({ ok: true, data: null });
    expect(await setAnswerStar(otherCtx(), ids.activity, responses[0]!.id, false)).toMatchObject({
      ok: false,
      code: "CONFLICT",
    });
    expect(await setAnswerStar(otherCtx(), ids.foreign, responses[0]!.id, true)).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    // a star goes out as a state change: the projector's stream sends it at once (counts settle for 40 ms first)
    const seen: string[] = [];
    const unsubscribe = await subscribe(`activity:${ids.activity}`, (m) => seen.push(m.kind));
    await new Promise((r) => setTimeout(r, 300)); // what the steps above notified has arrived
    seen.length = 0;
    expect(await setAnswerStar(ctx(), ids.activity, responses[1]!.id, true)).toEqual({ ok: true, data: null });
    await expect.poll(() => seen).toContain("state");
    unsubscribe();
    expect(await setSessionFlags(ctx(), ids.activity, { starredOnly: true })).toMatchObject({ ok: true });
    const starred = await projectorState(token);
    expect(starred.status === "running" && starred.results?.answers.map((a) => a.text)).toEqual(["にごる", "色がつく"]);
    expect(await setAnswerStar(ctx(), ids.activity, responses[0]!.id, false)).toEqual({ ok: true, data: null });
    const one = await projectorState(token);
    expect(one.status === "running" && one.results?.answers).toHaveLength(1);
  });

  it("a drawing scene's gallery: outlined pictures by arrival, anonymous; the grid's panel stars one; starred only shows it", async () => {
    const [s1, s2] = ids.students as [string, string, string];
    const activity = (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: ids.school, mode: "standby" })
    ).id;
    const { version } = await db().activity.findUniqueOrThrow({ where: { id: activity }, select: { version: true } });
    const added = await addScene(ctx(), {
      activityId: activity,
      version,
      scene: { type: "drawing", content: { prompt: "とけるようすを絵にかこう" } },
    });
    if (!added.ok) throw new Error(added.code);
    const scene = added.data.sceneId;
    expect(await startSession(ctx(), activity)).toMatchObject({ ok: true });
    expect(await goToScene(ctx(), activity, scene)).toMatchObject({ ok: true });
    const token = await openLink(ctx(), activity);
    const stroke = {
      color: DRAWING_COLORS[2],
      size: 8,
      points: [
        [10, 10, 0.5],
        [200, 120, 0.5],
        [400, 300, 0.5],
      ],
    };
    for (const s of [s1, s2]) {
      expect(
        await saveAnswer(s, {
          ...answer(scene, { width: 1000, height: 750, strokes: [stroke] }),
          activityId: activity,
        }),
      ).toMatchObject({ ok: true });
    }
    expect(await setSessionFlags(ctx(), activity, { showResults: true })).toMatchObject({ ok: true });
    const all = await projectorState(token);
    expect(
      all.status === "running" && all.results?.drawings.map((d) => [d.strokes, d.name, d.paths.length > 0]),
    ).toEqual([
      [1, null, true],
      [1, null, true],
    ]);
    expect(JSON.stringify(all)).not.toContain("名前");
    // the teacher stars the second student's drawing from the grid's answer panel
    const now = await studentAnswerNow(ids.school, activity, s2);
    expect(now).toMatchObject({ starred: false, responseId: expect.any(String) });
    expect(await setAnswerStar(ctx(), activity, now!.responseId!, true)).toEqual({ ok: true, data: null });
    expect(await studentAnswerNow(ids.school, activity, s2)).toMatchObject({ starred: true });
    expect(await setSessionFlags(ctx(), activity, { starredOnly: true })).toMatchObject({ ok: true });
    const starred = await projectorState(token);
    expect(starred.status === "running" && starred.results?.drawings.map((d) => d.starred)).toEqual([true]);
    await endSession(ctx(), activity);
  });

  it("a revoked link and every link after the lesson open nothing", async () => {
    await revokeProjectorLinks(ctx(), ids.activity); // the links the tests above opened
    const revoked = await openLink();
    const second = await openLink();
    expect(await revokeProjectorLinks(ctx(), ids.activity)).toMatchObject({ ok: true });
    expect(await projectorLinkOf(revoked)).toBeNull();
    expect(await projectorLinkOf(second)).toBeNull();
    const after = await openLink();
    expect(await projectorState(after)).toMatchObject({ status: "running" });
    expect(await endSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    expect(await projectorLinkOf(after)).toBeNull();
    expect(await projectorState(after)).toEqual({
      status: "ended",
      sessionStartedAt: Number.MAX_SAFE_INTEGER,
      version: 0,
    });
    // a new lesson of the same activity does not bring an old link back
    expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    expect(await projectorLinkOf(after)).toBeNull();
    await endSession(ctx(), ids.activity);
  });
});

/** One projector stream of a token, through the route handler; abort() ends it (its place is released). */
async function projectorStream(token: string) {
  const aborter = new AbortController();
  const res = await projectorEvents(
    new NextRequest(`http://localhost/api/v1/projector/${token}/events`, { signal: aborter.signal }),
    token,
  );
  return { status: res.status, abort: () => aborter.abort() };
}

/** A fresh guide activity of a school with its session running. */
async function runningActivity(c = ctx()) {
  const activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: c.schoolId, mode: "standby" })
  ).id;
  expect(await startSession(c, activity)).toMatchObject({ ok: true });
  return activity;
}

describe("projector caps", () => {
  it("a session has at most a few open links; a stopped one frees its place", async () => {
    const activity = await runningActivity();
    for (let i = 0; i < MAX_PROJECTOR_LINKS; i++) await openLink(ctx(), activity);
    expect(await createProjectorLink(ctx(), activity)).toEqual({
      ok: false,
      code: "RATE_LIMITED",
      fieldErrors: { projector: ["tooManyLinks"] },
    });
    // opened at once, they still cannot pass the cap together
    expect(await revokeProjectorLinks(ctx(), activity)).toMatchObject({ ok: true });
    const race = await Promise.all(
      Array.from({ length: MAX_PROJECTOR_LINKS + 3 }, () => createProjectorLink(ctx(), activity)),
    );
    expect(race.filter((r) => r.ok)).toHaveLength(MAX_PROJECTOR_LINKS);
    expect(race.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual([
      "RATE_LIMITED",
      "RATE_LIMITED",
      "RATE_LIMITED",
    ]);
    expect(await revokeProjectorLinks(ctx(), activity)).toMatchObject({ ok: true });
    expect(await openLink(ctx(), activity)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await endSession(ctx(), activity);
  });

  it("every projector stream of a session counts against one cap; another school's projector still gets its stream", async () => {
    const activity = await runningActivity();
    const tokens: string[] = [];
    for (let i = 0; i < MAX_PROJECTOR_LINKS; i++) tokens.push(await openLink(ctx(), activity));
    const open: Awaited<ReturnType<typeof projectorStream>>[] = [];
    try {
      // the session's streams, spread over its links, up to the cap
      for (let i = 0; i < env().LIVE_STREAMS_PER_USER; i++)
        open.push(await projectorStream(tokens[i % tokens.length]!));
      expect(open.map((o) => o.status)).toEqual(Array(env().LIVE_STREAMS_PER_USER).fill(200));
      // one more on any of its links is refused
      for (const token of tokens) {
        const refused = await projectorStream(token);
        expect(refused.status).toBe(429);
      }
      // another school's lesson is not held back
      const foreign = await runningActivity(otherCtx());
      const theirs = await projectorStream(await openLink(otherCtx(), foreign));
      open.push(theirs);
      expect(theirs.status).toBe(200);
      await endSession(otherCtx(), foreign);
    } finally {
      for (const o of open) o.abort();
    }
    // a closed stream gives its place back
    await expect
      .poll(async () => {
        const again = await projectorStream(tokens[0]!);
        again.abort();
        return again.status;
      })
      .toBe(200);
    await endSession(ctx(), activity);
  });
});

describe("projector images", () => {
  const png = (r: number) =>
    sharp({ create: { width: 120, height: 80, channels: 3, background: { r, g: 40, b: 90 } } })
      .png()
      .toBuffer();
  const get = (token: string, id: string) =>
    projectorImage(new Request(`http://localhost/api/v1/projector/${token}/images/${id}`), token, id);

  /** An image of the school placed on the first scene of `activity` (and one on an option of its third). */
  // each call its own bytes (`shade`): a school storing the same bytes again gets the same image back
  async function placeImages(activity: string, shade: number, schoolId = ids.school, actorId = ids.teacher) {
    const scenes = await db().activityScene.findMany({
      where: { activityId: activity },
      orderBy: { position: "asc" },
      select: { id: true, content: true },
    });
    const stored = [
      await storeImage(schoolId as AuthorizedSchoolId, actorId, await png(shade)),
      await storeImage(schoolId as AuthorizedSchoolId, actorId, await png(shade + 1)),
    ];
    const [scene, option] = stored.map((x) => (x.ok ? x.image : null));
    if (!scene || !option) throw new Error("not stored");
    const ref = (i: { id: string; width: number; height: number }) => ({
      id: i.id,
      alt: "ビーカー",
      width: i.width,
      height: i.height,
    });
    const first = scenes[0]!.content as { prompt: string };
    await db().activityScene.update({
      where: { id: scenes[0]!.id },
      data: { content: { ...first, image: ref(scene) } },
    });
    const third = scenes[2]!.content as { options: { id: string; label: string }[] };
    await db().activityScene.update({
      where: { id: scenes[2]!.id },
      data: {
        content: { ...third, options: third.options.map((o, i) => (i === 0 ? { ...o, image: ref(option) } : o)) },
      },
    });
    return { scene: scene.id, option: option.id };
  }

  it("a link reads exactly its activity's images, and none once it stops (410)", async () => {
    const activity = await runningActivity();
    const mine = await placeImages(activity, 200);
    const sibling = await placeImages(
      (
        await createActivityFromTemplate(db(), {
          templateId: "science-dissolve",
          schoolId: ids.school,
          mode: "standby",
        })
      ).id,
      100,
    );
    const foreignActivity = (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: ids.other, mode: "standby" })
    ).id;
    const foreign = await placeImages(foreignActivity, 30, ids.other, ids.otherTeacher);
    const token = await openLink(ctx(), activity);

    for (const id of [mine.scene, mine.option]) {
      const res = await get(token, id);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(120);
    }
    // the same school's other activity, another school's, an id that is no image, garbage: nothing
    for (const id of [
      sibling.scene,
      sibling.option,
      foreign.scene,
      foreign.option,
      "00000000-0000-4000-8000-000000000000",
      "../x",
      "x".repeat(500),
    ]) {
      expect((await get(token, id)).status).toBe(404);
    }
    // another lesson's token does not read this one's images either
    const foreignToken = await openLink(otherCtx(), await runningActivity(otherCtx()));
    expect((await get(foreignToken, mine.scene)).status).toBe(404);
    // a garbage token, then the stopped link: 410
    expect((await get("a".repeat(43), mine.scene)).status).toBe(410);
    expect(await revokeProjectorLinks(ctx(), activity)).toMatchObject({ ok: true });
    expect((await get(token, mine.scene)).status).toBe(410);
    await endSession(ctx(), activity);
  });
});
