/**
 * Drawing answers (docs/product-design.md "Drawing") go through the one answer
 * writer like every other answer: stored as strokes, refused past the limits
 * with the existing codes (400 VALIDATION tooLong / invalidAnswer), nothing
 * stored then.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/platform/db";
import { endSession, goToScene, startSession } from "@/features/play/server/session-commands";
import { sceneResults } from "@/features/play/server/state-queries";
import { addScene } from "@/features/activities/server/scene-commands";
import { DRAWING_COLORS, DRAWING_LIMITS } from "@/features/scenes/shared/drawing-limits";
import { drawingAnswers } from "@/features/results/server/drawings-queries";
import { researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

let student: string;
let otherStudent: string;
let activity: string;
let scene: string;
let schoolId: AuthorizedSchoolId;
let otherSchool: AuthorizedSchoolId;
let teacher: string;

const drawing = (strokes: unknown[]) => ({ width: 1000, height: 750, strokes });
const stroke = (n: number, extra: Record<string, unknown> = {}) => ({
  color: DRAWING_COLORS[2],
  size: 8,
  points: Array.from({ length: n }, (_, i) => [i % 1000, i % 750, 0.5]),
  ...extra,
});

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `D${tag}`, nameKana: "でぃー" });
  const school = (await createSchool(db(), { academyId: academy.id, name: `D${tag}`, nameKana: "でぃー" })).id;
  schoolId = school as AuthorizedSchoolId;
  const other = (await createSchool(db(), { academyId: academy.id, name: `E${tag}`, nameKana: "いー" })).id;
  otherSchool = other as AuthorizedSchoolId;
  student = (
    await createUser(db(), {
      role: "student",
      email: `dr-${tag}@t.example`,
      schoolId: school,
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  otherStudent = (
    await createUser(db(), {
      role: "student",
      email: `dro-${tag}@t.example`,
      schoolId: other,
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  teacher = (await createUser(db(), { role: "teacher", email: `drt-${tag}@t.example`, schoolId: school })).id;
  activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, mode: "self" })
  ).id;
  const { version } = await db().activity.findUniqueOrThrow({ where: { id: activity }, select: { version: true } });
  const added = await addScene(
    { schoolId: school as AuthorizedSchoolId, actorId: teacher },
    {
      activityId: activity,
      version,
      scene: { type: "drawing", content: { prompt: "とけるようすを絵にかこう", instructions: "つぶの動きを矢印で" } },
    },
  );
  if (!added.ok) throw new Error(`addScene: ${added.code}`);
  scene = added.data.sceneId;
});
afterAll(async () => {
  await db().$disconnect();
});

const save = (answer: unknown, clientRevision: number, who = student) =>
  saveAnswer(who, {
    activityId: activity,
    sceneId: scene,
    answer,
    clientRevision,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
  });
const stored = () => db().response.findMany({ where: { sceneId: scene }, select: { answer: true, userId: true } });

it("a drawing is stored as strokes through the writer, and a newer revision replaces it", async () => {
  const first = drawing([stroke(3), stroke(1, { color: DRAWING_COLORS[1], size: 16, points: [[500, 375]] })]);
  expect(await save(first, 1)).toMatchObject({ ok: true, revision: 1, stale: false });
  expect(await stored()).toEqual([{ answer: first, userId: student }]);
  const second = drawing([stroke(3)]);
  expect(await save(second, 2)).toMatchObject({ ok: true, revision: 2 });
  expect(await save(first, 1)).toMatchObject({ ok: true, revision: 2, stale: true });
  expect(await stored()).toEqual([{ answer: second, userId: student }]);
});

it("oversized or forged drawings are refused with the existing codes and change nothing", async () => {
  const before = await stored();
  const tooLong = { ok: false, status: 400, code: "VALIDATION", reason: "tooLong" };
  const invalid = { ok: false, status: 400, code: "VALIDATION", reason: "invalidAnswer" };
  expect(await save(drawing([stroke(DRAWING_LIMITS.pointsPerStroke + 1)]), 10)).toEqual(tooLong);
  expect(await save(drawing(Array.from({ length: DRAWING_LIMITS.strokes + 1 }, () => stroke(1))), 11)).toEqual(tooLong);
  expect(await save(drawing(Array.from({ length: 9 }, () => stroke(DRAWING_LIMITS.pointsPerStroke))), 12)).toEqual(
    tooLong,
  );
  expect(await save(drawing([stroke(2, { color: 'red"/><script>alert(1)</script>' })]), 13)).toEqual(invalid);
  expect(
    await save(
      drawing([
        stroke(2, {
          points: [
            [1, 1],
            ["<b>", 2],
          ],
        }),
      ]),
      14,
    ),
  ).toEqual(invalid);
  expect(await save({ ...drawing([]), png: "data:image/png;base64,AAAA" }, 15)).toEqual(invalid);
  expect(await save({ text: "絵のかわりに文字" }, 16)).toEqual(invalid);
  expect(await stored()).toEqual(before);
});

it("a student of another school cannot answer the drawing scene", async () => {
  expect(await save(drawing([stroke(2)]), 1, otherStudent)).toMatchObject({ ok: false, status: 404 });
  expect((await stored()).map((r) => r.userId)).toEqual([student]);
});

it("stats list who drew (stroke counts); the gallery loads only the school's drawings asked for; CSVs say a drawing was made, never the strokes", async () => {
  const stats = (await activityStats(schoolId, activity, {}))!;
  const mine = stats.scenes.find((x) => x.id === scene)!;
  expect(mine.answered).toBe(1);
  expect(mine.drawings).toEqual([{ strokes: 1, who: expect.objectContaining({ id: student }) }]);
  expect([...(await drawingAnswers(schoolId, activity, scene, [student])).keys()]).toEqual([student]);
  expect((await drawingAnswers(otherSchool, activity, scene, [student])).size).toBe(0);
  const csv = resultsCsv(stats, "ja");
  expect(csv).toContain("絵（線1本）");
  let research = "";
  for await (const chunk of researchRows(schoolId, activity, false, "ja")) research += chunk;
  expect(research).toContain("絵（線1本）");
  expect(research).toContain('{""strokes"":1}');
  expect(research).not.toContain("points");
});

it("in a live session, a drawing is saved on the scene the teacher shows, and refused on another", async () => {
  const ctx = { schoolId, actorId: teacher };
  const live = (answer: unknown, clientRevision: number) =>
    saveAnswer(student, {
      activityId: activity,
      sceneId: scene,
      answer,
      clientRevision,
      idempotencyKey: `g${uniqueTag()}${uniqueTag()}`,
      mode: "guide",
    });
  expect(await startSession(ctx, activity)).toMatchObject({ ok: true });
  expect(await live(drawing([stroke(2)]), 20)).toMatchObject({ ok: false, status: 409, reason: "notCurrentScene" });
  expect(await goToScene(ctx, activity, scene)).toMatchObject({ ok: true });
  const answer = drawing([stroke(4), stroke(2, { color: DRAWING_COLORS[0] })]);
  expect(await live(answer, 21)).toMatchObject({ ok: true, revision: 21 });
  expect(
    await db().response.findFirstOrThrow({
      where: { sceneId: scene, userId: student },
      select: { answer: true, mode: true },
    }),
  ).toEqual({ answer, mode: "guide" });
  // the teacher's live results count the drawings without reading their strokes
  expect(await sceneResults(activity, scene, true)).toEqual({
    sceneId: scene,
    total: 1,
    counts: {},
    names: {},
    texts: [],
    cross: {},
  });
  expect(await endSession(ctx, activity)).toMatchObject({ ok: true });
});
