import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COUNTS_DEBOUNCE_MS } from "@/platform/notify/channel";
import { debounceCounts } from "@/platform/notify/listen";

describe("answer counts: one notification per activity per window (debounceCounts)", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("many changes in a window notify once, after the window; each activity has its own window", async () => {
    const sent: string[] = [];
    const notify = (id: string) => async () => void sent.push(id);
    const onError = vi.fn();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    for (let n = 0; n < 30; n++) debounceCounts(a, notify(a), onError);
    debounceCounts(b, notify(b), onError);
    await vi.advanceTimersByTimeAsync(COUNTS_DEBOUNCE_MS - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.sort()).toEqual([a, b].sort());
    // the window is over: the next change notifies again
    debounceCounts(a, notify(a), onError);
    await vi.advanceTimersByTimeAsync(COUNTS_DEBOUNCE_MS);
    expect(sent.filter((id) => id === a)).toHaveLength(2);
    expect(onError).not.toHaveBeenCalled();
  });

  it("a notification that fails goes to onError, and the next window still notifies", async () => {
    const id = crypto.randomUUID();
    const onError = vi.fn();
    debounceCounts(id, () => Promise.reject(new Error("database away")), onError);
    await vi.advanceTimersByTimeAsync(COUNTS_DEBOUNCE_MS);
    expect(onError).toHaveBeenCalledWith(new Error("database away"));
    const notify = vi.fn(async () => undefined);
    debounceCounts(id, notify, onError);
    await vi.advanceTimersByTimeAsync(COUNTS_DEBOUNCE_MS);
    expect(notify).toHaveBeenCalledTimes(1);
  });
});
