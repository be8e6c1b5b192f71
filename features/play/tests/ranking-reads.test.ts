/**
 * rankingReads (features/play/server/game-standings.ts): reads of a session's ranking that start while one is in flight
 * share it while no notification of its activity arrived since; otherwise, or once it has answered, they read again.
 */
import { describe, expect, it } from "vitest";
import { type Ranking, rankingReads } from "@/features/play/server/game-standings";

function counted() {
  const loads: string[] = [];
  const answers: (() => void)[] = [];
  const loader = {
    load: (sessionId: string) => {
      loads.push(sessionId);
      return new Promise<Ranking | null>((resolve) => answers.push(() => resolve(null)));
    },
  };
  return { loader, loads, answerAll: () => answers.splice(0).forEach((a) => a()) };
}

describe("rankingReads", () => {
  it("the projector's read and the students' read of one change, in flight together: one load", async () => {
    const { loader, loads, answerAll } = counted();
    const reads = rankingReads(loader, () => 7);
    const students = reads.read("s1", "a1");
    const projector = reads.read("s1", "a1");
    expect(projector).toBe(students);
    expect(loads).toEqual(["s1"]);
    answerAll();
    await students;
    // answered: the next read reads again
    void reads.read("s1", "a1");
    expect(loads).toEqual(["s1", "s1"]);
  });

  it("a notification of the activity since the read began, another session, or no activity named: a read of its own", () => {
    const { loader, loads } = counted();
    let generation = 1;
    const reads = rankingReads(loader, () => generation);
    void reads.read("s1", "a1");
    generation = 2;
    void reads.read("s1", "a1");
    void reads.read("s2", "a1");
    void reads.read("s1");
    expect(loads).toEqual(["s1", "s1", "s2", "s1"]);
  });
});
