/**
 * Word cloud scenes live (features/scenes/shared/word-cloud.ts, features/play/server/word-cloud-queries.ts): the
 * answers grouped by their folded key, the most common spelling shown; the teacher's 「隠す」 a change of the
 * session (audited, version + 1); a hidden word's spelling and key absent from the projector's state (the bytes
 * its route sends) and from the students' state; the statistics and the CSV count the words.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/platform/db";
import { addScene } from "@/features/activities/server/scene-commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { liveStateForStaff, liveStateForStudent } from "@/features/play/server/state-queries";
import { goToScene, setSessionFlags, setWordHidden, startSession } from "@/features/play/server/session-commands";
import { createProjectorLink } from "@/features/play/server/projector-commands";
import { projectorState } from "@/features/play/server/projector-queries";
import { projectorStateRoute } from "@/features/play/server/projector-routes";
import { researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import { wordKey } from "@/features/scenes/shared/word-cloud";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

const ids = {} as {
  school: string;
  teacher: string;
  activity: string;
  cloud: string;
  choice: string;
  students: string[];
};
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
const SECRET = "ひみつの言葉";
let token: string;

const save = (who: string, answer: unknown, sceneId = ids.cloud) =>
  saveAnswer(who, {
    activityId: ids.activity,
    sceneId,
    answer,
    clientRevision: 1,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "guide",
  });

beforeAll(async () => {
  const { tag, school } = await twoSchools();
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const student = async (n: number) =>
    (
      await createUser(db(), {
        role: "student",
        email: `wc${n}-${tag}@t.example`,
        schoolId: school.id,
        student: { grade: 4, className: "1", number: n },
      })
    ).id;
  Object.assign(ids, {
    school: school.id,
    activity: activity.id,
    teacher: (await createUser(db(), { role: "teacher", email: `wct-${tag}@t.example`, schoolId: school.id })).id,
    students: [await student(1), await student(2), await student(3)],
  });
  const { version } = await db().activity.findUniqueOrThrow({ where: { id: ids.activity }, select: { version: true } });
  const added = await addScene(ctx(), {
    activityId: ids.activity,
    version,
    scene: { type: "word_cloud", content: { prompt: "思いうかぶことば", maxWords: 2 } } as never,
  });
  if (!added.ok) throw new Error(`addScene: ${added.code}`);
  ids.cloud = added.data.sceneId;
  ids.choice = (
    await db().activityScene.findFirstOrThrow({ where: { activityId: ids.activity, type: "single_choice" } })
  ).id;
  await db().activity.update({ where: { id: ids.activity }, data: { mode: "guide" } });
  expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
  const link = await createProjectorLink(ctx(), ids.activity);
  if (!link.ok) throw new Error(`no link: ${link.code}`);
  token = link.data.path.split("/").pop()!;
});
afterAll(async () => {
  await db().$disconnect();
});

it("an empty word, a word over 20 characters or more words than the scene takes are refused and nothing is stored", async () => {
  expect(await goToScene(ctx(), ids.activity, ids.cloud)).toMatchObject({ ok: true });
  const [s1] = ids.students as [string];
  for (const bad of [{ words: [] }, { words: ["  "] }, { words: ["あ".repeat(21)] }, { words: ["a", "b", "c"] }])
    expect(await save(s1, bad)).toMatchObject({ ok: false });
  expect(await db().response.count({ where: { sceneId: ids.cloud } })).toBe(0);
});

it("the projector shows the words grouped by their folded key, most first, the most common spelling", async () => {
  const [s1, s2, s3] = ids.students as [string, string, string];
  expect(await setSessionFlags(ctx(), ids.activity, { showResults: true })).toMatchObject({ ok: true });
  expect(await save(s1, { words: ["ネコ", "いぬ"] })).toMatchObject({ ok: true });
  expect(await save(s2, { words: ["ねこ", SECRET] })).toMatchObject({ ok: true });
  expect(await save(s3, { words: ["ねこ ", "ｲﾇ"] })).toMatchObject({ ok: true });
  expect(await projectorState(token)).toMatchObject({
    results: {
      total: 3,
      words: [
        { word: "ねこ", n: 3 },
        { word: "いぬ", n: 2 },
        { word: SECRET, n: 1 },
      ],
    },
  });
});

it("a hidden word never reaches the projector nor the students; the console lists it hidden; shown again, it is back", async () => {
  const version = async () =>
    (await db().guideSession.findFirstOrThrow({ where: { activityId: ids.activity, endedAt: null } })).version;
  const before = await version();
  expect(await setWordHidden(ctx(), ids.activity, wordKey(SECRET), true)).toEqual({ ok: true, data: null });
  expect(await version()).toBe(before + 1);
  expect(
    await db().auditLog.count({ where: { targetId: ids.activity, action: "guide.word.hide", actorId: ids.teacher } }),
  ).toBe(1);

  const bytes = await (await projectorStateRoute(token)).text();
  expect(bytes).toContain("ねこ");
  expect(bytes).not.toContain(SECRET);
  expect(bytes).not.toContain(wordKey(SECRET));
  expect(JSON.parse(bytes)).toMatchObject({
    results: {
      words: [
        { word: "ねこ", n: 3 },
        { word: "いぬ", n: 2 },
      ],
    },
  });
  const student = JSON.stringify(await liveStateForStudent(ids.activity, null, ids.students[0]!));
  expect(student).not.toContain(SECRET);
  expect(student).not.toContain("ねこ");

  const staff = await liveStateForStaff(ids.activity, ids.school);
  expect(staff?.results?.words).toContainEqual({ key: wordKey(SECRET), word: SECRET, n: 1, hidden: true });

  expect(await setWordHidden(ctx(), ids.activity, wordKey(SECRET), false)).toMatchObject({ ok: true });
  expect(await (await projectorStateRoute(token)).text()).toContain(SECRET);
  expect(await db().auditLog.count({ where: { targetId: ids.activity, action: "guide.word.show" } })).toBe(1);
});

it("hiding a word is refused on a scene that is not a word cloud", async () => {
  expect(await goToScene(ctx(), ids.activity, ids.choice)).toMatchObject({ ok: true });
  expect(await setWordHidden(ctx(), ids.activity, "ねこ", true)).toMatchObject({ ok: false, code: "VALIDATION" });
  expect(await goToScene(ctx(), ids.activity, ids.cloud)).toMatchObject({ ok: true });
});

it("the statistics group the words; the CSV has a row per group and each student's raw words", async () => {
  const stats = await activityStats(ids.school as AuthorizedSchoolId, ids.activity, {});
  const scene = stats!.scenes.find((s) => s.id === ids.cloud)!;
  expect(scene.answered).toBe(3);
  expect(scene.correct).toBeNull();
  expect(scene.typed.words).toEqual({ ネコ: 1, いぬ: 1, ねこ: 2, [SECRET]: 1, ｲﾇ: 1 });
  const csv = resultsCsv(stats!, "ja");
  expect(csv).toContain("ねこ,,3");
  let research = "";
  for await (const chunk of researchRows(ids.school as AuthorizedSchoolId, ids.activity, false, "ja"))
    research += chunk;
  expect(research).toContain("ネコ / いぬ");
  expect(research).toContain(`ねこ / ${SECRET}`);
});
