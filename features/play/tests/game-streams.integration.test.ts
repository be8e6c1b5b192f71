/**
 * A game's standings in the students' streams (features/play/server/game-standings.ts, student-state.ts
 * stateForStudent), served as the production server serves them (features/play/server/stream-endpoint.ts): while the
 * teacher shows the leaderboard or the podium, each student's stream carries their own standing and nobody else's
 * name, nickname or points; the standings are read by one statement per change for the sessions read together, not
 * one per student.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { LIVE_CHANNEL, livePayload } from "@/platform/notify/channel";
import { goToScene, setGameView, startSession } from "@/features/play/server/session-commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { createProjectorLink } from "@/features/play/server/projector-commands";
import { projectorState } from "@/features/play/server/projector-queries";
import { RANKING_MARK } from "@/features/play/server/game-standings";
import type { GameStanding } from "@/features/play/shared/game";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createUser, uniqueTag } from "../../../prisma/seed/factories";
import { keyedDissolve, twoSchools } from "../../../tests/support/two-schools";
import { type LiveEndpoints, serveLiveEndpoints } from "../../../tests/support/live-endpoints";
import { followStream, until } from "../../../tests/support/live-stream";
import { sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { statementsCame, withTableLocked } from "../../../tests/support/held-lock";
import { testDatabaseUrl } from "../../../tests/support/helpers";

let served: LiveEndpoints;
const ids = {} as { school: string; teacher: string; players: string[]; late: string; lesson: string; other: string };
const choices = {} as Record<string, string>;
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
type Stream = Awaited<ReturnType<typeof followStream>>;
const streams = new Map<string, Stream>();

/** The standing the stream's latest state carries (undefined: none yet). */
const standingOn = (stream: Stream) =>
  (stream.states().at(-1) as unknown as { standing: GameStanding | null } | undefined)?.standing;

beforeAll(async () => {
  const { tag, school } = await twoSchools();
  const lesson = await keyedDissolve(school.id);
  const other = await keyedDissolve(school.id);
  const student = (key: string, n: number) =>
    createUser(db(), {
      role: "student",
      email: `gs-${key}-${tag}@t.example`,
      schoolId: school.id,
      name: `本名 ${key}`,
      student: { grade: 1, className: String(1 + (n % 2)), number: n },
    }).then((u) => u.id);
  Object.assign(ids, {
    school: school.id,
    teacher: (await createUser(db(), { role: "teacher", email: `gs-t-${tag}@t.example`, schoolId: school.id })).id,
    players: [await student("a", 1), await student("b", 2), await student("c", 3)],
    late: await student("d", 4),
    lesson: lesson.activity.id,
    other: other.activity.id,
  });
  Object.assign(choices, { [lesson.activity.id]: lesson.choice.id, [other.activity.id]: other.choice.id });
  served = await serveLiveEndpoints({ answers: 2, advance: 2, streams: 4 });
  // two games of the school at once, both whole-school with teams (the classes)
  for (const activity of [ids.lesson, ids.other]) {
    const started = await startSession(ctx(), activity, null, { teams: true, names: false });
    if (!started.ok) throw new Error(started.code);
    expect(await goToScene(ctx(), activity, choices[activity]!)).toMatchObject({ ok: true });
  }
  for (const [who, activity] of [...ids.players.map((p) => [p, ids.lesson]), [ids.late, ids.other]] as const) {
    const stream = await followStream(served.ports.streams, activity, await sessionCookieOf(who, "student", 0));
    streams.set(who, stream);
    await until(() => stream.states().length > 0, "the first state");
  }
  // a correct answer at once (within the seconds this setup takes), a correct one 10 s after the scene started, a wrong one: 3 different scores
  const [a, b, c] = ids.players as [string, string, string];
  const save = (who: string, activity: string, choice: string) =>
    saveAnswer(who, {
      activityId: activity,
      sceneId: choices[activity]!,
      answer: { choice },
      clientRevision: 1,
      idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
      mode: "guide",
    });
  for (const [who, choice] of [
    [a, "clear"],
    [b, "clear"],
    [c, "cloudy"],
  ] as const)
    expect(await save(who, ids.lesson, choice)).toMatchObject({ ok: true });
  expect(await save(ids.late, ids.other, "clear")).toMatchObject({ ok: true });
  await db()
    .$executeRaw`update responses r set updated_at = (gs.scene_starts->>(r.scene_id::text))::timestamptz + interval '10 seconds'
    from guide_sessions gs where gs.id = r.session_id and r.user_id = ${b}::uuid`;
});
afterAll(async () => {
  for (const s of streams.values()) s.stop();
  await served?.close();
  await db().$disconnect();
});

describe("a game's standings in the students' streams", () => {
  it("no standing while the scene is on screen", () => {
    for (const stream of streams.values()) expect(standingOn(stream)).toBeNull();
  });

  it("ランキングを見せる: each student's stream carries their own points, rank, team and nickname, and nobody else's", async () => {
    expect(await setGameView(ctx(), ids.lesson, { board: "ranking" })).toMatchObject({ ok: true });
    const [a, b, c] = ids.players.map((p) => streams.get(p)!) as [Stream, Stream, Stream];
    await until(() => [a, b, c].every((s) => standingOn(s)), "every player's standing", 20_000);
    const [first, second, third] = [a, b, c].map((s) => standingOn(s)!) as [GameStanding, GameStanding, GameStanding];
    expect(first).toMatchObject({ rank: 1, players: 3, podium: 1, team: { teams: 2 } });
    expect(first.points).toBeGreaterThan(750);
    expect(second).toMatchObject({ rank: 2, points: 750, players: 3, podium: 2 });
    expect(third).toMatchObject({ rank: 3, points: 0, players: 3, podium: 3 });
    // the other game's board is not shown: its student's stream carries none
    expect(standingOn(streams.get(ids.late)!)).toBeNull();
    const nick = (s: GameStanding) => JSON.stringify({ animal: s.nickname.animal, number: s.nickname.number });
    const mine = [
      { stream: a, own: first, others: [second, third] },
      { stream: b, own: second, others: [first, third] },
      { stream: c, own: third, others: [first, second] },
    ];
    for (const { stream, own, others } of mine) {
      // every state the stream sent: no standing, or this student's own (their team's total is the projector's too)
      for (const state of stream.states() as unknown as { standing: GameStanding | null }[])
        expect([null, JSON.stringify(own)]).toContain(state.standing && JSON.stringify(state.standing));
      const bytes = JSON.stringify(stream.states());
      for (const other of others) expect(bytes).not.toContain(nick(other));
      expect(bytes).not.toContain("本名");
      expect(bytes).not.toMatch(/"top"|"name"/);
    }
  });

  it("the standings of a change are read by ONE statement for every stream, every session shown and its projector, not one per student", async () => {
    const session = await db().guideSession.findFirstOrThrow({
      where: { activityId: ids.lesson, endedAt: null },
      select: { id: true },
    });
    const link = await createProjectorLink(ctx(), ids.lesson, session.id);
    if (!link.ok) throw new Error(link.code);
    const token = link.data.path.split("/").pop()!;
    // both games change in one transaction: their notifications arrive together
    const change = new pg.Client({ connectionString: testDatabaseUrl() });
    await change.connect();
    try {
      // the rankings read guide_presence: held, each statement reading them waits where it can be counted (the
      // students' standings and the projector's board are made from the same statement, RANKING_MARK)
      const { projected, statements } = await withTableLocked("guide_presence", async (waiting) => {
        await change.query("begin");
        await change.query(
          `update guide_sessions set game_board = 'podium', version = version + 1 where activity_id = any($1::uuid[]) and ended_at is null`,
          [[ids.lesson, ids.other]],
        );
        for (const activity of [ids.lesson, ids.other])
          await change.query("select pg_notify($1, $2)", [LIVE_CHANNEL, livePayload(`activity:${activity}`, "state")]);
        await change.query("commit");
        await expect.poll(() => waiting(RANKING_MARK), { timeout: 30_000 }).toBe(1);
        // the lesson's projector, notified by the same change, reads its board while the students' read waits
        const projected = projectorState(token);
        return { projected, statements: await statementsCame(waiting, RANKING_MARK) };
      });
      expect(statements).toBe(1);
      const board = await projected;
      expect(board.status === "running" && board.game).toMatchObject({ view: "podium", players: 3 });
    } finally {
      await change.end();
    }
    const late = streams.get(ids.late)!;
    await until(() => standingOn(late)?.podium === 1, "the other game's only player on the podium", 20_000);
    expect(standingOn(late)).toMatchObject({ rank: 1, players: 1 });
    for (const p of ids.players)
      await until(
        () => (streams.get(p)!.states().at(-1) as unknown as { game?: { board: string } }).game?.board === "podium",
        "the podium",
      );
    expect(standingOn(streams.get(ids.players[0]!)!)).toMatchObject({ rank: 1, podium: 1 });
  });

  it("the next question takes the board's place: no standing any more", async () => {
    const scenes = await db().activityScene.findMany({
      where: { activityId: ids.lesson },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    expect(await goToScene(ctx(), ids.lesson, scenes[3]!.id)).toMatchObject({ ok: true });
    for (const p of ids.players)
      await until(() => streams.get(p)!.states().at(-1)?.sceneId === scenes[3]!.id, "the next scene");
    for (const p of ids.players) expect(standingOn(streams.get(p)!)).toBeNull();
  });
});
