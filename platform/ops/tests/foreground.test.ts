/**
 * The server's answer saves as its idle children see them (platform/ops/foreground.ts): a child's work waits while
 * saves are being made and goes once none has come for QUIET_MS, or DEFER_MAX_MS into saves that do not stop; the
 * server's messages reach a real child process, one every 100 ms at most however many saves.
 */
import { fork } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEFER_MAX_MS,
  followForeground,
  foregroundBusy,
  foregroundQuiet,
  noteForegroundBusy,
  QUIET_MS,
} from "../foreground";

const reset = () => {
  (globalThis as { manabiyaForeground?: unknown }).manabiyaForeground = undefined;
};

/** When foregroundQuiet resolves, in fake time from now, with `busy` called at each fake millisecond it names. */
async function quietAfter(busyAt: (t: number) => boolean, limit = 60_000): Promise<number | null> {
  const start = Date.now();
  let done: number | null = null;
  if (busyAt(0)) noteForegroundBusy();
  void foregroundQuiet().then(() => (done = Date.now() - start));
  for (let t = 50; t <= limit && done === null; t += 50) {
    await vi.advanceTimersByTimeAsync(50);
    if (busyAt(t)) noteForegroundBusy();
  }
  return done;
}

describe("a child's work beside the server's saves", () => {
  beforeEach(() => {
    reset();
    vi.useFakeTimers({ now: new Date("2026-12-01T09:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
    reset();
  });

  it("goes at once when no save is being made", async () => {
    let done = false;
    void foregroundQuiet().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it("waits while saves come, and goes once none has come for QUIET_MS", async () => {
    // saves for 3 s, then none
    const done = await quietAfter((t) => t < 3_000);
    expect(done).toBeGreaterThanOrEqual(2_950 + QUIET_MS);
    expect(done).toBeLessThanOrEqual(3_000 + QUIET_MS + 100);
  });

  it("goes DEFER_MAX_MS into saves that do not stop", async () => {
    const done = await quietAfter(() => true);
    expect(done).toBeGreaterThanOrEqual(DEFER_MAX_MS - 100);
    expect(done).toBeLessThanOrEqual(DEFER_MAX_MS + 100);
  });

  it("a gap shorter than QUIET_MS does not end a stretch of saves; a longer one starts a new one", async () => {
    // saves with a 300 ms gap at 10 s: one stretch, so the wait ends DEFER_MAX_MS after the first save
    const short = await quietAfter((t) => t < 10_000 || t >= 10_300);
    expect(short).toBeGreaterThanOrEqual(DEFER_MAX_MS - 100);
    expect(short).toBeLessThanOrEqual(DEFER_MAX_MS + 100);
    reset();
    // a gap of a second ends the wait
    const long = await quietAfter((t) => t < 10_000 || t >= 11_000);
    expect(long).toBeGreaterThanOrEqual(10_000 + QUIET_MS - 100);
    expect(long).toBeLessThanOrEqual(10_000 + QUIET_MS + 100);
  });
});

describe("the server's messages to a child", () => {
  let dir: string;
  beforeEach(async () => {
    reset();
    dir = await mkdtemp(path.join(tmpdir(), "foreground-"));
  });
  afterEach(async () => {
    reset();
    await rm(dir, { recursive: true, force: true });
  });

  it("reach a child that follows, one every 100 ms at most", async () => {
    const script = path.join(dir, "echo.mjs");
    await writeFile(script, `process.on("message", (m) => process.send(m));\n`);
    const child = fork(script, [], { serialization: "advanced" });
    const received: unknown[] = [];
    child.on("message", (m) => received.push(m));
    try {
      followForeground(child);
      const t = Date.now();
      // a thousand saves in 250 ms: three messages (at 0, 100 and 200 ms)
      for (let n = 0; n < 1000; n++) foregroundBusy(t + n / 4);
      await vi.waitFor(() => expect(received).toHaveLength(3));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toHaveLength(3);
    } finally {
      child.kill();
    }
  });
});
