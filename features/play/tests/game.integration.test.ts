/**
 * Game mode (features/play/server/game-queries.ts, session-commands.ts setGameView): points from stored times only
 * (the scene's first start to the answer's last save), nicknames until the teacher shows names, ties sharing a rank,
 * team totals, and a student's own standing only while the board is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import {
  goToScene,
  setGameView,
  startSession,
  touchPresence,
  endSession,
} from "@/features/play/server/session-commands";
import { gameBoardOf } from "@/features/play/server/game-queries";
import { RANKING_MARK } from "@/features/play/server/game-standings";
import { liveStateForStudent } from "@/features/play/server/state-queries";
import { projectorState } from "@/features/play/server/projector-queries";
import { createProjectorLink } from "@/features/play/server/projector-commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createUser, uniqueTag } from "../../../prisma/seed/factories";
import { keyedDissolve, twoSchools } from "../../../tests/support/two-schools";
import { statementsCame, withTableLocked } from "../../../tests/support/held-lock";

const ids = {} as {
  school: string;
  other: string;
  teacher: string;
  fast: string;
  slow: string;
  wrong: string;
  idle: string;
  absent: string;
  foreign: string;
  activity: string;
  intro: string;
  choice: string;
  text: string;
};
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
const answer = (sceneId: string, value: Record<string, unknown>, revision = 1) => ({
  activityId: ids.activity,
  sceneId,
  answer: value,
  clientRevision: revision,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "guide" as const,
});
/** A student's own standing as their state carries it (their class "1:1" unless said). */
const standing = async (id: string, klass = "1:1") => (await liveStateForStudent(ids.activity, klass, id))?.standing;

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const { activity, scenes, choice } = await keyedDissolve(school.id);
  let seat = 0;
  const student = (
    key: string,
    klass: { grade: number; className: string; counterbalanceGroup?: string },
    schoolId = school.id,
  ) =>
    createUser(db(), {
      role: "student",
      email: `gm-${key}-${tag}@t.example`,
      schoolId,
      name: `本名 ${key}`,
      student: { ...klass, number: ++seat },
    }).then((u) => u.id);
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    activity: activity.id,
    intro: scenes[0]!.id,
    choice: choice.id,
    text: scenes[4]!.id,
    teacher: (await createUser(db(), { role: "teacher", email: `gm-t-${tag}@t.example`, schoolId: school.id })).id,
    fast: await student("fast", { grade: 1, className: "1", counterbalanceGroup: "A" }),
    slow: await student("slow", { grade: 1, className: "1", counterbalanceGroup: "B" }),
    wrong: await student("wrong", { grade: 1, className: "2", counterbalanceGroup: "A" }),
    idle: await student("idle", { grade: 1, className: "2" }),
    absent: await student("absent", { grade: 1, className: "2" }),
    foreign: await student("foreign", { grade: 1, className: "1" }, other.id),
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("game mode", () => {
  let sessionId = "";

  it("an ordinary session has no game: no board, no standing, the game controls are refused", async () => {
    const started = await startSession(ctx(), ids.activity, null);
    expect(started.ok).toBe(true);
    expect(await liveStateForStudent(ids.activity, "1:1")).toMatchObject({ game: null });
    expect(await setGameView(ctx(), ids.activity, { board: "ranking" })).toMatchObject({
      ok: false,
      code: "VALIDATION",
    });
    if (started.ok)
      expect(await gameBoardOf(started.data.sessionId, "ranking", { names: false, teams: false })).toBeNull();
    expect(await endSession(ctx(), ids.activity)).toMatchObject({ ok: true });
  });

  it("points for a correct answer fall with its time; a wrong one, a scene without a key and a re-save earn nothing more", async () => {
    const started = await startSession(ctx(), ids.activity, null, { teams: true, names: false });
    if (!started.ok) throw new Error(started.code);
    sessionId = started.data.sessionId;
    expect(await liveStateForStudent(ids.activity, "1:1")).toMatchObject({
      game: { board: null, teams: true, names: false },
    });
    expect(await goToScene(ctx(), ids.activity, ids.choice)).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.fast, answer(ids.choice, { choice: "clear" }))).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.slow, answer(ids.choice, { choice: "clear" }))).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.wrong, answer(ids.choice, { choice: "cloudy" }))).toMatchObject({ ok: true });
    await touchPresence(sessionId, ids.idle);
    // the slow student's last save came 10 s after the scene started: half the way to half the points
    await db()
      .$executeRaw`update responses r set updated_at = (gs.scene_starts->>(r.scene_id::text))::timestamptz + interval '10 seconds'
      from guide_sessions gs where gs.id = ${sessionId}::uuid and r.user_id = ${ids.slow}::uuid and r.scene_id = ${ids.choice}::uuid`;
    const board = await gameBoardOf(sessionId, "ranking", { names: false, teams: true });
    expect(board!.players).toBe(4);
    const [first, second, ...rest] = board!.top;
    expect(first!.rank).toBe(1);
    expect(first!.points).toBeGreaterThan(990);
    expect(first!.points).toBeLessThanOrEqual(1000);
    expect(second).toMatchObject({ rank: 2, points: 750 });
    // a wrong answer and no answer: 0, the same rank
    expect(rest.map((p) => [p.rank, p.points])).toEqual([
      [3, 0],
      [3, 0],
    ]);
    expect(board!.top.every((p) => p.name === null)).toBe(true);
    const nicknames = board!.top.map((p) => `${p.nickname.animal}-${p.nickname.number}`);
    expect(new Set(nicknames).size).toBe(4);
    // the fast student changes to the same answer later: a later save, never more points
    const before = first!.points;
    await new Promise((r) => setTimeout(r, 50));
    expect(await saveAnswer(ids.fast, answer(ids.choice, { choice: "clear" }, 2))).toMatchObject({ ok: true });
    // a scene without a key earns nothing
    expect(await goToScene(ctx(), ids.activity, ids.text)).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.wrong, answer(ids.text, { text: "とける" }))).toMatchObject({ ok: true });
    const after = await gameBoardOf(sessionId, "ranking", { names: false, teams: false });
    expect(after!.top[0]!.points).toBeLessThanOrEqual(before);
    expect(after!.top.find((p) => p.rank === 3)!.points).toBe(0);
    expect(after!.teams).toBeNull();
    // the nicknames stay the session's
    expect(after!.top.map((p) => `${p.nickname.animal}-${p.nickname.number}`).sort()).toEqual([...nicknames].sort());
  });

  it("teams: the classes of a whole-school session, by total", async () => {
    const board = await gameBoardOf(sessionId, "ranking", { names: false, teams: true });
    expect(board!.teams!.map((t) => [t.rank, t.klass, t.points > 1700, t.members])).toEqual([
      [1, { grade: 1, className: "1" }, true, 2],
      [2, { grade: 1, className: "2" }, false, 2],
    ]);
  });

  it("names only when the teacher shows them; a student sees their own standing only while the board is shown", async () => {
    expect(await standing(ids.slow)).toBeNull();
    expect(await setGameView(ctx(), ids.activity, { board: "ranking" })).toMatchObject({ ok: true });
    expect(await liveStateForStudent(ids.activity, "1:2")).toMatchObject({ game: { board: "ranking" } });
    expect(await standing(ids.slow)).toEqual({
      points: 750,
      rank: 2,
      players: 4,
      nickname: { animal: expect.any(Number), number: expect.any(Number) },
      team: { rank: 1, points: expect.any(Number), teams: 2 },
      podium: 2,
    });
    expect(await standing(ids.idle, "1:2")).toMatchObject({ points: 0, rank: 3, podium: 3, team: { rank: 2 } });
    // another school's student, a student who neither joined nor answered, a state without a student: no standing
    expect(await standing(ids.foreign)).toBeNull();
    expect(await standing(ids.absent, "1:2")).toBeNull();
    expect(await liveStateForStudent(ids.activity, "1:2")).toMatchObject({ standing: null });

    const opened = await createProjectorLink(ctx(), ids.activity);
    if (!opened.ok) throw new Error(opened.code);
    const token = opened.data.path.split("/").pop()!;
    const shown = await projectorState(token);
    const board = shown.status === "running" ? shown.game : null;
    expect(board).toMatchObject({ view: "ranking", players: 4 });
    expect(JSON.stringify(board)).not.toContain("本名");
    expect(await setGameView(ctx(), ids.activity, { names: true, board: "podium" })).toMatchObject({ ok: true });
    const named = await projectorState(token);
    expect(named.status === "running" && named.game?.top.map((p) => p.name)).toEqual([
      "本名 fast",
      "本名 slow",
      expect.stringMatching(/本名 (wrong|idle)/),
      expect.stringMatching(/本名 (wrong|idle)/),
    ]);
    expect(named).toMatchObject({ game: { view: "podium" } });
    // the next question takes the board's place
    expect(await goToScene(ctx(), ids.activity, ids.intro)).toMatchObject({ ok: true });
    expect(await liveStateForStudent(ids.activity, "1:1")).toMatchObject({
      game: { board: null, teams: true, names: true },
    });
    expect(await standing(ids.slow)).toBeNull();
  });

  it("a class's session: its students only, teams by counterbalance group", async () => {
    expect(await endSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    const started = await startSession(
      ctx(),
      ids.activity,
      { grade: 1, className: "1" },
      { teams: true, names: false },
    );
    if (!started.ok) throw new Error(started.code);
    expect(await goToScene(ctx(), ids.activity, ids.choice)).toMatchObject({ ok: true });
    // answers are the student's own across sessions: an answer given in another session earns nothing here
    await touchPresence(started.data.sessionId, ids.fast);
    const board = await gameBoardOf(started.data.sessionId, "ranking", { names: false, teams: true });
    expect(board).toMatchObject({ players: 1, top: [{ rank: 1, points: 0 }] });
    expect(board!.teams).toEqual([{ rank: 1, points: 0, members: 1, klass: null, group: "A" }]);

    // another class's game at the same time: boards read together (one statement) are each their session's own
    const second = await startSession(ctx(), ids.activity, { grade: 1, className: "2" }, { teams: true, names: false });
    if (!second.ok) throw new Error(second.code);
    await touchPresence(second.data.sessionId, ids.wrong);
    await touchPresence(second.data.sessionId, ids.idle);
    const opts = { names: true, teams: true };
    const together = await Promise.all([
      gameBoardOf(started.data.sessionId, "ranking", opts),
      gameBoardOf(second.data.sessionId, "podium", opts),
    ]);
    expect(together).toEqual([
      await gameBoardOf(started.data.sessionId, "ranking", opts),
      await gameBoardOf(second.data.sessionId, "podium", opts),
    ]);
    expect(together[0]!.top.map((p) => p.name)).toEqual(["本名 fast"]);
    expect(together[1]!.top.map((p) => p.name).sort()).toEqual(["本名 idle", "本名 wrong"]);
    expect(together[1]!.teams!.map((t) => [t.group, t.members])).toEqual([["A", 1]]);
  });

  it("the projectors of two classes' games notified together: both boards read by one statement, not one each", async () => {
    const sessions = await db().guideSession.findMany({
      where: { activityId: ids.activity, endedAt: null, game: true },
      orderBy: { className: "asc" },
      select: { id: true },
    });
    expect(sessions).toHaveLength(2);
    const tokens: string[] = [];
    for (const { id } of sessions) {
      expect(await setGameView(ctx(), ids.activity, { board: "ranking" }, id)).toMatchObject({ ok: true });
      const opened = await createProjectorLink(ctx(), ids.activity, id);
      if (!opened.ok) throw new Error(opened.code);
      tokens.push(opened.data.path.split("/").pop()!);
    }
    // the boards read guide_presence: held, each statement reading them waits where it can be counted
    const { reading, statements } = await withTableLocked("guide_presence", async (waiting) => {
      const reading = Promise.all(tokens.map((token) => projectorState(token)));
      return { reading, statements: await statementsCame(waiting, RANKING_MARK) };
    });
    expect(statements).toBe(1);
    const shown = await reading;
    expect(shown.map((s) => (s.status === "running" ? s.game?.players : null))).toEqual([1, 2]);
  });

  it("a number within its tolerance and blanks filled right earn points like a choice; a number outside it or a wrong blank earns nothing", async () => {
    const session = await db().guideSession.findFirstOrThrow({
      where: { activityId: ids.activity, endedAt: null, game: true, className: "1" },
      select: { id: true },
    });
    const position = await db().activityScene.count({ where: { activityId: ids.activity } });
    const number = await db().activityScene.create({
      data: {
        activityId: ids.activity,
        position,
        type: "number",
        content: { prompt: "長さは？", unit: "cm", correct: 12.5, tolerance: 0.5 },
      },
    });
    const blanks = await db().activityScene.create({
      data: {
        activityId: ids.activity,
        position: position + 1,
        type: "fill_blanks",
        content: { prompt: "書こう", text: "首都は[[|東京(とうきょう)]]、水は[[100/百]]度" },
      },
    });
    const pointsOf = async (id: string) => {
      const board = await gameBoardOf(session.id, "ranking", { names: true, teams: false });
      return board!.top.find((p) => p.name === `本名 ${id}`)?.points ?? null;
    };
    await touchPresence(session.id, ids.slow);
    const before = { fast: await pointsOf("fast"), slow: await pointsOf("slow") };
    expect(before).toEqual({ fast: 0, slow: 0 });

    expect(await goToScene(ctx(), ids.activity, number.id, session.id)).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.fast, answer(number.id, { number: 12.9 }))).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.slow, answer(number.id, { number: 13.1 }))).toMatchObject({ ok: true });
    const afterNumber = await pointsOf("fast");
    expect(afterNumber).toBeGreaterThan(990);
    expect(await pointsOf("slow")).toBe(0);

    expect(await goToScene(ctx(), ids.activity, blanks.id, session.id)).toMatchObject({ ok: true });
    // katakana and full width fold to the accepted answers (features/scenes/shared/answer-fold.ts)
    expect(await saveAnswer(ids.fast, answer(blanks.id, { blanks: ["トウキョウ", "１００"] }))).toMatchObject({
      ok: true,
    });
    expect(await saveAnswer(ids.slow, answer(blanks.id, { blanks: ["東京", "90"] }))).toMatchObject({ ok: true });
    expect(await pointsOf("fast")).toBeGreaterThan(afterNumber! + 990);
    expect(await pointsOf("slow")).toBe(0);
  });
});
