/**
 * The rows of tests/repo/actions-access.integration.test.ts: every
 * server action with the one valid call the test makes as every actor (so a
 * refusal never comes from bad input) and the change the rightful actor's
 * call must make (so no row passes because the action is simply broken).
 */
import { expect } from "vitest";
import * as activityActions from "@/features/activities/server/actions";
import { db } from "@/platform/db";
import type { ActionResult } from "@/platform/errors";
import * as libraryActions from "@/features/activities/server/library-actions";
import * as liveActions from "@/features/play/server/actions";
import { markResponseAction, readMarkAction } from "@/features/results/server/mark-actions";
import * as projectorActions from "@/features/play/server/projector-actions";
import { cellReasonsAction } from "@/features/results/server/actions";
import * as schoolActions from "@/features/people/server/school-actions";
import * as readingActions from "@/features/activities/server/reading-actions";
import * as studentActions from "@/features/people/server/actions";
import {
  createActivityFromTemplate,
  createResponse,
  createSigninCode,
  createUser,
  uniqueTag,
} from "../../prisma/seed/factories";
import { readTemplateFiles } from "@/features/activities/server/template-load";
import { TEST_SIGNIN_CODE_KEY } from "./helpers";

/** Fresh rows per test in the rightful actors' school: what one call acts on. */
export interface Fx {
  school: string;
  sibling: string;
  foreign: string;
  target: string;
  target2: string;
  targetTeacher: string;
  activity: string;
  scenes: string[];
  /** the activity's first two_step scene, answered by `target` ("same"/"sure") */
  twoStep: string;
  code: string;
}

/** Seats not used by any other student of the school (one student per seat): fixtures are made many times in one school. */
let seats = 0;
const nextSeat = () => {
  const n = seats++;
  return { grade: 2, className: String(1 + Math.floor(n / 99)), number: 1 + (n % 99) };
};

export async function makeFx(
  schools: { school: string; sibling: string; foreign: string },
  activity: { status: "active" | "archived"; mode: "self" | "guide" },
): Promise<Fx> {
  const student = async () =>
    (
      await createUser(db(), {
        role: "student",
        email: `st-${uniqueTag()}@access.example`,
        name: "対象",
        schoolId: schools.school,
        student: nextSeat(),
      })
    ).id;
  const target = await student();
  const target2 = await student();
  const targetTeacher = (
    await createUser(db(), {
      role: "teacher",
      email: `tt-${uniqueTag()}@access.example`,
      name: "対象 先生",
      schoolId: schools.school,
    })
  ).id;
  const code = await createSigninCode(db(), target, TEST_SIGNIN_CODE_KEY);
  const made = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: schools.school,
    ...activity,
  });
  const scenes = await db().activityScene.findMany({
    where: { activityId: made.id },
    orderBy: { position: "asc" },
    select: { id: true, type: true, position: true },
  });
  const twoStep = scenes.find((s) => s.type === "two_step")!;
  await createResponse(db(), {
    activityId: made.id,
    sceneId: twoStep.id,
    userId: target,
    answer: { first: "same", second: "sure", reason: "理由の対照" },
    scenePosition: twoStep.position,
  });
  return {
    ...schools,
    target,
    target2,
    targetTeacher,
    activity: made.id,
    scenes: scenes.map((s) => s.id),
    twoStep: twoStep.id,
    code,
  };
}

export type Call = (f: Fx, schoolId?: string) => Promise<ActionResult<unknown>>;
export interface Row {
  name: string;
  /** The fixture's activity (default: an active self-paced one). */
  activity?: { status: "active" | "archived"; mode: "self" | "guide" };
  call: Call;
  /** Set the scene up before the calls (e.g. a running guide session). */
  prepare?: (f: Fx) => Promise<void>;
  /** The rightful actor's call succeeded: what it must have changed (or returned). */
  effect: (f: Fx, data: unknown) => Promise<void>;
}

const user = (id: string) => db().user.findUnique({ where: { id }, include: { student: true, signinCodes: true } });
const csv = () => {
  const form = new FormData();
  form.set("file", new File(["学年,組,番号,氏名\n3,9,1,取込 太郎\n"], "x.csv", { type: "text/csv" }));
  form.set("commit", "1");
  return form;
};
/** An exported activity file (a bundled template in the file format) with this title. */
async function activityFile(title: string) {
  const {
    id: _id,
    description: _d,
    ...content
  } = (await readTemplateFiles()).find((t) => t.id === "science-dissolve")!;
  return new File([JSON.stringify({ format: "manabiya-activity", version: 1, ...content, title })], "activity.json", {
    type: "application/json",
  });
}
const studentsNamed = async (f: Fx, name: string) => db().user.count({ where: { schoolId: f.school, name } });

export const STUDENT_ROWS: Row[] = [
  {
    name: "add",
    call: () => studentActions.addStudentAction({ name: "追加 生徒", ...nextSeat() }),
    effect: async (f) => expect(await studentsNamed(f, "追加 生徒")).toBeGreaterThanOrEqual(1),
  },
  {
    name: "update",
    call: (f) => studentActions.updateStudentAction({ studentId: f.target, name: "改名 生徒", ...nextSeat() }),
    effect: async (f) => expect((await user(f.target))?.name).toBe("改名 生徒"),
  },
  {
    name: "delete",
    call: (f) => studentActions.deleteStudentsAction({ studentIds: [f.target] }),
    effect: async (f) => expect(await user(f.target)).toBeNull(),
  },
  {
    name: "disable",
    call: (f) => studentActions.setDisabledAction({ studentIds: [f.target], disabled: true }),
    effect: async (f) => expect((await user(f.target))?.disabled).toBe(true),
  },
  {
    name: "reset password",
    call: (f) => studentActions.resetPasswordAction({ studentId: f.target }),
    effect: async (f, data) => {
      expect(data).toMatchObject({ password: expect.any(String) });
      expect((await user(f.target))?.passwordHash).toBeTruthy();
    },
  },
  {
    name: "new codes",
    call: (f) => studentActions.issueCodesAction({ studentIds: [f.target] }),
    effect: async (f) => {
      const codes = (await user(f.target))!.signinCodes;
      expect(codes.filter((c) => c.revokedAt === null)).toHaveLength(1);
      expect(codes.filter((c) => c.revokedAt !== null)).toHaveLength(1);
    },
  },
  {
    name: "revoke codes",
    call: (f) => studentActions.revokeCodesAction({ studentIds: [f.target] }),
    effect: async (f) => expect((await user(f.target))!.signinCodes.every((c) => c.revokedAt)).toBe(true),
  },
  {
    name: "read code",
    call: (f) => studentActions.readCodeAction({ studentId: f.target }),
    effect: async (f, data) =>
      expect(data).toEqual({ url: expect.stringMatching(new RegExp(`/auth/auth-with-code\\?code=${f.code}$`)) }),
  },
  {
    name: "code expiry",
    call: (f) => studentActions.setCodeExpiryAction({ studentIds: [f.target], expiresOn: "2030-01-01" }),
    effect: async (f) =>
      expect((await user(f.target))!.signinCodes[0]!.expiresAt?.toISOString().slice(0, 10)).toBe("2030-01-01"),
  },
  {
    name: "set group",
    call: (f) => studentActions.setGroupAction({ studentIds: [f.target], group: "Z" }),
    effect: async (f) => expect((await user(f.target))?.student?.counterbalanceGroup).toBe("Z"),
  },
  {
    name: "balance",
    call: (f) => studentActions.balanceGroupsAction({ studentIds: [f.target, f.target2], groups: ["X", "Y"] }),
    effect: async (f) =>
      expect(
        [
          (await user(f.target))?.student?.counterbalanceGroup,
          (await user(f.target2))?.student?.counterbalanceGroup,
        ].sort(),
      ).toEqual(["X", "Y"]),
  },
  {
    name: "import",
    call: () => studentActions.importStudentsFromForm(csv()),
    effect: async (f) => expect(await studentsNamed(f, "取込 太郎")).toBeGreaterThanOrEqual(1),
  },
];

const teacher = (id: string) => db().user.findUnique({ where: { id }, select: { disabled: true, schoolId: true } });
export const SCHOOL_ROWS: Row[] = [
  {
    name: "rename",
    call: (f) =>
      schoolActions.renameSchoolAction({ schoolId: f.school, name: `改名校${f.target.slice(0, 6)}`, nameKana: "" }),
    effect: async (f) =>
      expect((await db().school.findUnique({ where: { id: f.school } }))?.name).toBe(`改名校${f.target.slice(0, 6)}`),
  },
  {
    name: "add teacher",
    call: (f) =>
      schoolActions.addTeacherAction({
        schoolId: f.school,
        name: "追加 先生",
        nameKana: "",
        email: `added-${f.target}@x.example`,
      }),
    effect: async (f) =>
      expect(
        await db().user.findUnique({
          where: { email: `added-${f.target}@x.example` },
          select: { schoolId: true, role: true },
        }),
      ).toEqual({ schoolId: f.school, role: "teacher" }),
  },
  {
    name: "disable teacher",
    call: (f) => schoolActions.setTeacherDisabledAction({ teacherId: f.targetTeacher, disabled: true }),
    effect: async (f) => expect((await teacher(f.targetTeacher))?.disabled).toBe(true),
  },
  {
    name: "move teacher",
    call: (f) => schoolActions.moveTeacherAction({ teacherId: f.targetTeacher, schoolId: f.sibling }),
    effect: async (f) => expect((await teacher(f.targetTeacher))?.schoolId).toBe(f.sibling),
  },
];

const activity = (id: string) =>
  db().activity.findUnique({
    where: { id },
    select: { status: true, mode: true, title: true, version: true, feedback: true, allowRetries: true },
  });
const ref = (f: Fx, schoolId?: string) => ({ ...(schoolId ? { schoolId } : {}), activityId: f.activity });
export const ACTIVITY_ROWS: Row[] = [
  {
    name: "copy template",
    call: (_f, schoolId) =>
      activityActions.copyTemplateAction({
        ...(schoolId ? { schoolId } : {}),
        templateId: "science-dissolve",
        title: "複製の対照",
      }),
    effect: async (f, data) =>
      expect(
        await db().activity.findUnique({
          where: { id: (data as { id: string }).id },
          select: { schoolId: true, title: true },
        }),
      ).toEqual({ schoolId: f.school, title: "複製の対照" }),
  },
  {
    name: "import activity",
    call: async (_f, schoolId) =>
      activityActions.importActivityAction({
        ...(schoolId ? { schoolId } : {}),
        file: await activityFile("取込の対照"),
      }),
    effect: async (f, data) =>
      expect(
        await db().activity.findUnique({
          where: { id: (data as { id: string }).id },
          select: { schoolId: true, title: true, templateId: true },
        }),
      ).toEqual({ schoolId: f.school, title: "取込の対照", templateId: null }),
  },
  {
    name: "duplicate activity",
    call: (f, s) => activityActions.duplicateActivityAction(ref(f, s)),
    effect: async (f, data) => {
      const copy = await db().activity.findUniqueOrThrow({
        where: { id: (data as { id: string }).id },
        select: { schoolId: true, title: true },
      });
      expect(copy.schoolId).toBe(f.school);
      expect(copy.title.endsWith("（コピー）")).toBe(true);
    },
  },
  {
    name: "change mode",
    call: (f, s) => activityActions.changeModeAction({ ...ref(f, s), mode: "guide" }),
    effect: async (f) => expect((await activity(f.activity))?.mode).toBe("guide"),
  },
  {
    name: "archive",
    call: (f, s) => activityActions.archiveAction(ref(f, s)),
    effect: async (f) => expect((await activity(f.activity))?.status).toBe("archived"),
  },
  {
    name: "restore",
    activity: { status: "archived", mode: "self" },
    call: (f, s) => activityActions.restoreAction(ref(f, s)),
    effect: async (f) => expect((await activity(f.activity))?.status).toBe("active"),
  },
  {
    name: "delete",
    activity: { status: "archived", mode: "self" },
    call: (f, s) => activityActions.deleteAction(ref(f, s)),
    effect: async (f) => expect(await activity(f.activity)).toBeNull(),
  },
  {
    name: "save order",
    call: (f, s) =>
      activityActions.saveOrderAction({
        ...ref(f, s),
        version: 1,
        title: "並べ替えの対照",
        order: [...f.scenes].reverse(),
        groupOrders: {},
      }),
    effect: async (f) => expect((await activity(f.activity))?.title).toBe("並べ替えの対照"),
  },
  {
    name: "save scene",
    call: (f, s) =>
      activityActions.saveSceneAction({
        ...ref(f, s),
        version: 1,
        sceneId: f.scenes[2]!,
        scene: {
          type: "single_choice",
          content: {
            prompt: "編集の対照",
            options: [
              { id: "a", label: "あ" },
              { id: "b", label: "い" },
            ],
          },
        },
      }),
    effect: async (f) => expect((await sceneOf(f.scenes[2]!))?.content).toMatchObject({ prompt: "編集の対照" }),
  },
  {
    // only a scene never answered changes type: the row clears the fixture's answers to it first
    name: "retype scene",
    prepare: async (f) => {
      await db().response.deleteMany({ where: { sceneId: f.scenes[1]! } });
    },
    call: (f, s) =>
      activityActions.retypeSceneAction({
        ...ref(f, s),
        version: 1,
        sceneId: f.scenes[1]!,
        scene: { type: "info", content: { prompt: "種類替えの対照" } },
      }),
    effect: async (f) =>
      expect(await sceneOf(f.scenes[1]!)).toMatchObject({ type: "info", content: { prompt: "種類替えの対照" } }),
  },
  {
    name: "add scene",
    call: (f, s) =>
      activityActions.addSceneAction({
        ...ref(f, s),
        version: 1,
        scene: { type: "info", content: { prompt: "追加の対照" } },
      }),
    effect: async (f, data) =>
      expect(await sceneOf((data as { sceneId: string }).sceneId)).toMatchObject({
        activityId: f.activity,
        position: f.scenes.length,
      }),
  },
  {
    name: "duplicate scene",
    call: (f, s) => activityActions.duplicateSceneAction({ ...ref(f, s), version: 1, sceneId: f.scenes[0]! }),
    effect: async (f, data) =>
      expect(await sceneOf((data as { sceneId: string }).sceneId)).toMatchObject({
        activityId: f.activity,
        position: 1,
      }),
  },
  {
    name: "delete scene",
    call: (f, s) => activityActions.deleteSceneAction({ ...ref(f, s), version: 1, sceneId: f.scenes[0]! }),
    effect: async (f) => expect(await sceneOf(f.scenes[0]!)).toBeNull(),
  },
  {
    name: "create blank",
    call: (_f, s) =>
      activityActions.createBlankActivityAction({
        ...(s ? { schoolId: s } : {}),
        title: "白紙の対照",
        scene: { type: "info", content: { prompt: "はじめに" } },
      }),
    effect: async (f, data) =>
      expect(
        await db().activity.findUnique({
          where: { id: (data as { id: string }).id },
          select: { schoolId: true, title: true },
        }),
      ).toEqual({ schoolId: f.school, title: "白紙の対照" }),
  },
  {
    name: "set feedback",
    call: (f, s) => activityActions.setFeedbackAction({ ...ref(f, s), feedback: "at_end" }),
    effect: async (f) => expect((await activity(f.activity))?.feedback).toBe("at_end"),
  },
  {
    name: "set retries",
    call: (f, s) => activityActions.setRetriesAction({ ...ref(f, s), allowRetries: true }),
    effect: async (f) => expect((await activity(f.activity))?.allowRetries).toBe(true),
  },
  {
    name: "set curriculum code",
    call: (f, s) => activityActions.setCurriculumCodeAction({ ...ref(f, s), curriculumCode: "8260243111200000" }),
    effect: async (f) =>
      expect((await db().activity.findUnique({ where: { id: f.activity } }))?.curriculumCode).toBe("8260243111200000"),
  },
  {
    name: "set scene curriculum code",
    call: (f, s) =>
      activityActions.setSceneCurriculumCodeAction({
        ...ref(f, s),
        sceneId: f.scenes[0]!,
        curriculumCode: "8260243111200000",
      }),
    effect: async (f) =>
      expect((await db().activityScene.findUnique({ where: { id: f.scenes[0]! } }))?.curriculumCode).toBe(
        "8260243111200000",
      ),
  },
  {
    // who answers may change only while nobody has answered and nobody can: the row clears the fixture's answers first
    name: "set actor type",
    prepare: async (f) => {
      await db().response.deleteMany({ where: { activityId: f.activity } });
      await db().activity.update({ where: { id: f.activity }, data: { mode: "standby" }, select: { id: true } });
    },
    call: (f, s) => activityActions.setActorTypeAction({ ...ref(f, s), actorType: "teacher" }),
    effect: async (f) =>
      expect(
        (await db().activity.findUnique({ where: { id: f.activity }, select: { actorType: true } }))?.actorType,
      ).toBe("teacher"),
  },
  {
    name: "mark response",
    call: async (f, s) =>
      markResponseAction({
        ...ref(f, s),
        responseId: (await answerOf(f)).id,
        verdict: null,
        comment: "対照のコメント",
      }),
    effect: async (f) =>
      expect(
        await db().responseMark.findUnique({
          where: { responseId: (await answerOf(f)).id },
          select: { comment: true },
        }),
      ).toEqual({ comment: "対照のコメント" }),
  },
  {
    name: "read mark",
    prepare: async (f) => {
      const answer = await answerOf(f);
      await db().responseMark.create({
        data: { responseId: answer.id, verdict: null, comment: "読むコメント", answerAt: new Date() },
      });
    },
    call: async (f, s) => readMarkAction({ ...ref(f, s), responseId: (await answerOf(f)).id }),
    effect: async (_f, data) => expect(data).toMatchObject({ comment: "読むコメント", verdict: null }),
  },
  {
    name: "delete school reading",
    prepare: (f) => listWord(f),
    call: (f, s) => readingActions.deleteSchoolReadingAction({ ...(s ? { schoolId: s } : {}), base: wordOf(f) }),
    effect: async (f) => expect(await readingOf(f)).toBeNull(),
  },
  {
    name: "correct school reading",
    prepare: (f) => listWord(f),
    call: (f, s) =>
      readingActions.correctSchoolReadingAction({
        ...(s ? { schoolId: s } : {}),
        base: wordOf(f),
        reading: "タイショウ",
      }),
    effect: async (f) =>
      expect(await readingOf(f)).toMatchObject({
        reading: "たいしょう",
        source: "page",
        updatedBy: expect.any(String),
      }),
  },
];
/** A word of the fixture's school's own reading list (features/activities/server/furigana-word-commands.ts). */
const wordOf = (f: Fx) => `対照${f.target.slice(0, 8)}`;
const listWord = async (f: Fx) => {
  await db().schoolReading.create({ data: { schoolId: f.school, base: wordOf(f), reading: "たいしょう" } });
};
const readingOf = (f: Fx) =>
  db().schoolReading.findUnique({ where: { schoolId_base: { schoolId: f.school, base: wordOf(f) } } });
/** The fixture's one answer (`target`'s two-step answer). */
const answerOf = (f: Fx) =>
  db().response.findFirstOrThrow({
    where: { activityId: f.activity, sceneId: f.twoStep, userId: f.target },
    select: { id: true },
  });
/**
 * Activity actions only the school's teachers may call, not a manager of the academy: none (managers edit their
 * schools' activities too: features/activities/shared/policy.ts canEditActivity).
 */
export const TEACHER_ONLY_ROWS: string[] = [];
const sceneOf = (id: string) =>
  db().activityScene.findUnique({
    where: { id },
    select: { activityId: true, position: true, type: true, content: true },
  });

const GUIDE = { status: "active", mode: "guide" } as const;
/** The fixture's single-choice scene (science-dissolve's third) with "clear" marked correct: its id. */
export async function keyedChoice(f: Fx): Promise<string> {
  const scene = await db().activityScene.findUniqueOrThrow({ where: { id: f.scenes[2]! }, select: { content: true } });
  const content = scene.content as { options: { id: string }[] };
  const options = content.options.map((o) => ({ ...o, correct: o.id === "clear" }));
  await db().activityScene.update({ where: { id: f.scenes[2]! }, data: { content: { ...content, options } } });
  return f.scenes[2]!;
}
/** The fixture's free-text scene (science-dissolve's fifth) made a word cloud: its id. */
async function wordCloudScene(f: Fx): Promise<string> {
  const id = f.scenes[4]!;
  await db().activityScene.update({ where: { id }, data: { type: "word_cloud", content: { prompt: "ことば" } } });
  return id;
}
const running = (f: Fx) => db().guideSession.findFirst({ where: { activityId: f.activity, endedAt: null } });
/** A session the teacher of the school started (through the action, as the guide screen does). */
const started = (start: (f: Fx) => Promise<ActionResult<unknown>>) => async (f: Fx) =>
  expect(await start(f)).toMatchObject({ ok: true });
export function liveRows(
  asTeacher: (call: () => Promise<ActionResult<unknown>>) => Promise<ActionResult<unknown>>,
): Row[] {
  const prepare = started((f) => asTeacher(() => liveActions.startSessionAction(ref(f))));
  return [
    {
      name: "start",
      activity: GUIDE,
      call: (f, s) => liveActions.startSessionAction(ref(f, s)),
      effect: async (f) => expect(await running(f)).not.toBeNull(),
    },
    {
      name: "go to scene",
      activity: GUIDE,
      prepare,
      call: (f, s) => liveActions.goToSceneAction({ ...ref(f, s), sceneId: f.scenes[2]! }),
      effect: async (f) => expect((await running(f))?.currentSceneId).toBe(f.scenes[2]),
    },
    {
      name: "flags",
      activity: GUIDE,
      prepare,
      call: (f, s) => liveActions.setFlagsAction({ ...ref(f, s), showNames: true }),
      effect: async (f) => expect((await running(f))?.showNames).toBe(true),
    },
    {
      name: "pause",
      activity: GUIDE,
      prepare,
      call: (f, s) => liveActions.setPausedAction({ ...ref(f, s), paused: true }),
      effect: async (f) => expect((await running(f))?.paused).toBe(true),
    },
    {
      name: "timer",
      activity: GUIDE,
      prepare,
      call: (f, s) => liveActions.setTimerAction({ ...ref(f, s), seconds: 60, locks: true }),
      effect: async (f) => expect((await running(f))?.timerSeconds).toBe(60),
    },
    {
      name: "lock",
      activity: GUIDE,
      prepare,
      call: (f, s) => liveActions.setLockedAction({ ...ref(f, s), locked: true }),
      effect: async (f) => expect((await running(f))?.lockedSceneIds).toHaveLength(1),
    },
    {
      name: "reveal",
      activity: GUIDE,
      // on the single-choice scene, given a correct answer to show
      prepare: async (f) => {
        await prepare(f);
        const sceneId = await keyedChoice(f);
        expect(await asTeacher(() => liveActions.goToSceneAction({ ...ref(f), sceneId }))).toMatchObject({ ok: true });
      },
      call: (f, s) => liveActions.setRevealedAction({ ...ref(f, s), revealed: true }),
      effect: async (f) => expect((await running(f))?.revealedSceneId).toBe(f.scenes[2]),
    },
    {
      name: "hide word",
      activity: GUIDE,
      // on a word cloud scene (another scene has no words to hide)
      prepare: async (f) => {
        await prepare(f);
        const sceneId = await wordCloudScene(f);
        expect(await asTeacher(() => liveActions.goToSceneAction({ ...ref(f), sceneId }))).toMatchObject({ ok: true });
      },
      call: (f, s) => liveActions.setWordHiddenAction({ ...ref(f, s), key: "ねこ", hidden: true }),
      effect: async (f) => expect((await running(f))?.hiddenWords).toEqual({ [f.scenes[4]!]: ["ねこ"] }),
    },
    {
      name: "game view",
      activity: GUIDE,
      // a game session (an ordinary one refuses the game's controls)
      prepare: started((f) =>
        asTeacher(() => liveActions.startSessionAction({ ...ref(f), game: { teams: true, names: false } })),
      ),
      call: (f, s) => liveActions.setGameViewAction({ ...ref(f, s), board: "ranking", names: true }),
      effect: async (f) =>
        expect(await running(f)).toMatchObject({ game: true, gameBoard: "ranking", gameNames: true }),
    },
    {
      name: "end",
      activity: GUIDE,
      prepare,
      call: (f, s) => liveActions.endSessionAction(ref(f, s)),
      effect: async (f) => expect(await running(f)).toBeNull(),
    },
    {
      name: "open projector",
      activity: GUIDE,
      prepare,
      call: (f, s) => projectorActions.openProjectorAction(ref(f, s)),
      effect: async (f, data) => {
        expect(data).toEqual({ path: expect.stringMatching(/^\/projector\/[A-Za-z0-9_-]{43}$/) });
        expect(
          await db().projectorLink.count({ where: { session: { activityId: f.activity }, revokedAt: null } }),
        ).toBe(1);
      },
    },
    {
      name: "revoke projector",
      activity: GUIDE,
      prepare: async (f) => {
        await prepare(f);
        expect(await asTeacher(() => projectorActions.openProjectorAction(ref(f)))).toMatchObject({ ok: true });
      },
      call: (f, s) => projectorActions.revokeProjectorAction(ref(f, s)),
      effect: async (f) =>
        expect(
          await db().projectorLink.findMany({
            where: { session: { activityId: f.activity } },
            select: { revokedAt: true },
          }),
        ).toEqual([{ revokedAt: expect.any(Date) }]),
    },
    {
      name: "star answer",
      activity: GUIDE,
      prepare,
      // the answer by its scene (the call may name an activity that exists nowhere)
      call: async (f, s) =>
        projectorActions.starAnswerAction({
          ...ref(f, s),
          responseId: (await db().response.findFirstOrThrow({ where: { sceneId: f.twoStep, userId: f.target } })).id,
          starred: true,
        }),
      effect: async (f) =>
        expect(await db().projectorStar.count({ where: { responseId: (await answerOf(f)).id } })).toBe(1),
    },
    {
      name: "pacing",
      call: (f, s) => liveActions.setPacingAction({ ...ref(f, s), open: 2 }),
      effect: async (f) =>
        expect(
          (await db().activity.findUnique({ where: { id: f.activity }, select: { selfOpenScenes: true } }))
            ?.selfOpenScenes,
        ).toBe(2),
    },
    {
      name: "student answer",
      activity: GUIDE,
      prepare: async (f) => {
        await prepare(f);
        expect(await asTeacher(() => liveActions.goToSceneAction({ ...ref(f), sceneId: f.twoStep }))).toMatchObject({
          ok: true,
        });
      },
      call: (f, s) => liveActions.studentAnswerAction({ ...ref(f, s), studentId: f.target }),
      effect: async (f, data) =>
        expect(data).toMatchObject({
          studentId: f.target,
          sceneId: f.twoStep,
          answer: { first: "same", second: "sure" },
          drawing: null,
        }),
    },
    {
      name: "cell reasons",
      call: (f, s) =>
        cellReasonsAction({ ...ref(f, s), sceneId: f.twoStep, first: "same", second: "sure", filter: {} }),
      effect: async (_f, data) => expect(data).toEqual([expect.objectContaining({ reason: "理由の対照" })]),
    },
  ];
}

/** A library entry of the fixture school's academy (made by the library row's prepare), by the fixture's activity. */
const entries = new Map<string, string>();
const entryOf = (f: Fx) => entries.get(f.activity)!;
async function publishDirectly(f: Fx) {
  const {
    id: _id,
    description: _d,
    ...content
  } = (await readTemplateFiles()).find((t) => t.id === "science-dissolve")!;
  const { academyId } = await db().school.findUniqueOrThrow({ where: { id: f.school }, select: { academyId: true } });
  const entry = await db().libraryEntry.create({
    data: {
      academyId,
      sourceSchoolId: f.school,
      sourceActivityId: f.activity,
      title: content.title,
      actorType: content.actorType,
      sceneCount: content.scenes.length,
      content: { format: "manabiya-activity", version: 1, ...content },
    },
  });
  entries.set(f.activity, entry.id);
}
const entry = (f: Fx) =>
  db().libraryEntry.findUnique({ where: { id: entryOf(f) }, select: { subject: true, grade: true, unit: true } });
/** The academy library (features/activities/server/library-actions.ts): publish, withdraw and tags are the academy's managers'; copy is staff's of the academy's schools. */
export const LIBRARY_ROWS: Row[] = [
  {
    name: "publish",
    call: (f) =>
      libraryActions.publishActivityAction({
        schoolId: f.school,
        activityId: f.activity,
        subject: "science",
        grade: "e5",
        unit: "公開の対照",
      }),
    effect: async (f) =>
      expect(
        await db().libraryEntry.findUnique({
          where: { sourceActivityId: f.activity },
          select: { sourceSchoolId: true, unit: true },
        }),
      ).toEqual({ sourceSchoolId: f.school, unit: "公開の対照" }),
  },
  {
    name: "withdraw",
    prepare: publishDirectly,
    call: (f) => libraryActions.withdrawEntryAction({ entryId: entryOf(f) }),
    effect: async (f) => expect(await entry(f)).toBeNull(),
  },
  {
    name: "tags",
    prepare: publishDirectly,
    call: (f) =>
      libraryActions.setEntryTagsAction({ entryId: entryOf(f), subject: "math", grade: "j2", unit: "タグの対照" }),
    effect: async (f) => expect(await entry(f)).toEqual({ subject: "math", grade: "j2", unit: "タグの対照" }),
  },
  {
    name: "copy entry",
    prepare: publishDirectly,
    call: (f, schoolId) =>
      libraryActions.copyLibraryEntryAction({
        ...(schoolId ? { schoolId } : {}),
        entryId: entryOf(f),
        title: "図書の対照",
      }),
    effect: async (f, data) =>
      expect(
        await db().activity.findUnique({
          where: { id: (data as { id: string }).id },
          select: { schoolId: true, title: true },
        }),
      ).toEqual({ schoolId: f.school, title: "図書の対照" }),
  },
];
