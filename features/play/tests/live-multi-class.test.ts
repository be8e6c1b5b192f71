import { describe, expect, it } from "vitest";
import { stateForClass, type LiveState } from "@/features/play/server/student-state";

const state = (
  sessionId: string,
  classKey: string | null,
  status: LiveState["status"],
  startedAt: number,
): LiveState => ({
  activityId: "a",
  mode: "guide",
  sessionId,
  sessionStartedAt: startedAt,
  version: 2,
  status,
  sceneId: status === "running" ? `scene-${sessionId}` : null,
  locked: false,
  paused: sessionId === "s1",
  revealed: false,
  timer: null,
  classKey,
  game: null,
  standing: null,
});

describe("several classes at once: which session a student follows", () => {
  // latest session first, as the loader gives them
  const two = [state("s2", "2:2", "running", 20), state("s1", "2:1", "running", 10)];

  it("each class follows its own running session: its scene and pause, never the other class's", () => {
    expect(stateForClass(two, "2:1")).toMatchObject({ sessionId: "s1", sceneId: "scene-s1", paused: true });
    expect(stateForClass(two, "2:2")).toMatchObject({ sessionId: "s2", sceneId: "scene-s2", paused: false });
  });

  it("a class that runs nothing (or a student without a class) waits, seeing nothing of either session", () => {
    for (const klass of ["2:3", null])
      expect(stateForClass(two, klass)).toMatchObject({
        sessionId: null,
        status: "waiting",
        sceneId: null,
        paused: false,
      });
    // one object for all of them (serialised once)
    expect(stateForClass(two, "2:3")).toBe(stateForClass(two, null));
  });

  it("the whole school's running session is everyone's; a class's ended session is shown ended to it, also once another class's started later", () => {
    const whole = [state("w", null, "running", 30), state("s1", "2:1", "ended", 10)];
    expect(stateForClass(whole, "2:1")).toMatchObject({ sessionId: "w", status: "running" });
    expect(stateForClass([state("s1", "2:1", "ended", 10)], "2:1")).toMatchObject({ sessionId: "s1", status: "ended" });
    // (a waiting state would be older than the running one the student's page shows: it would stay on the scene)
    expect(stateForClass([state("s2", "2:2", "running", 20), state("s1", "2:1", "ended", 10)], "2:1")).toMatchObject({
      status: "ended",
      sessionId: "s1",
    });
    expect(stateForClass([state("s2", "2:2", "running", 20), state("s1", "2:1", "ended", 10)], "2:3")).toMatchObject({
      status: "waiting",
      sessionId: null,
    });
    expect(stateForClass([], "2:1")).toBeNull();
    expect(stateForClass(null, "2:1")).toBeNull();
  });
});
