import { describe, expect, it } from "vitest";
import { gridCounts, gridStateOf } from "@/features/play/shared/grid-state";
import { classKeyOf, sessionOpenTo } from "@/features/play/shared/klass";
import { stateForClass, type LiveState } from "@/features/play/server/student-state";

const WINDOW = 35_000;
const running: LiveState = {
  activityId: "a",
  mode: "guide",
  sessionId: "s",
  sessionStartedAt: 1,
  version: 3,
  status: "running",
  sceneId: "x",
  locked: true,
  paused: true,
  revealed: false,
  timer: { endsAt: 9, now: 1, seconds: 60, locks: false },
  classKey: "2:1",
  game: null,
  standing: null,
};

describe("the live grid's states and a session's class", () => {
  it("answered wins over presence; never seen is not joined; seen within the window is working, after it offline", () => {
    const now = 1_000_000;
    expect(gridStateOf({ answered: true, seenAt: null }, now, WINDOW)).toBe("answered");
    expect(gridStateOf({ answered: true, seenAt: 0 }, now, WINDOW)).toBe("answered");
    expect(gridStateOf({ answered: false, seenAt: null }, now, WINDOW)).toBe("notJoined");
    expect(gridStateOf({ answered: false, seenAt: now - 1_000 }, now, WINDOW)).toBe("working");
    expect(gridStateOf({ answered: false, seenAt: now - WINDOW }, now, WINDOW)).toBe("offline");
    expect(gridStateOf({ answered: false, seenAt: 0 }, now, WINDOW)).toBe("offline");
    expect(gridCounts([{ state: "answered" }, { state: "answered" }, { state: "offline" }])).toEqual({
      notJoined: 0,
      working: 0,
      answered: 2,
      offline: 1,
    });
  });

  it("class keys: both grade and class or none; a whole-school session is open to all, a class's only to it", () => {
    expect(classKeyOf(2, "1")).toBe("2:1");
    expect(classKeyOf(null, "1")).toBeNull();
    expect(classKeyOf(2, "")).toBeNull();
    expect(sessionOpenTo(null, null)).toBe(true);
    expect(sessionOpenTo(null, "3:3")).toBe(true);
    expect(sessionOpenTo("2:1", "2:1")).toBe(true);
    expect(sessionOpenTo("2:1", "2:2")).toBe(false);
    expect(sessionOpenTo("2:1", null)).toBe(false);
  });

  it("a student of another class sees no session: waiting, nothing of its scene, pause or timer; one object for all of them", () => {
    expect(stateForClass(running, "2:1")).toBe(running);
    const other = stateForClass(running, "2:2");
    expect(other).toMatchObject({
      status: "waiting",
      sessionId: null,
      sceneId: null,
      locked: false,
      paused: false,
      timer: null,
      version: 0,
    });
    expect(stateForClass(running, null)).toBe(other);
    expect(stateForClass(null, "2:2")).toBeNull();
    expect(stateForClass({ ...running, classKey: null }, "9:9")).toMatchObject({ status: "running" });
  });
});
