import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RETRY_FIRST_MS, RETRY_MAX_MS, retryDelay } from "@/features/play/ui/answer-queue";

describe("retry waits after a failed save", () => {
  it("double from the first wait up to the cap, each drawn between half and all of it", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, 0.999999))).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect([1, 2, 3].map((n) => retryDelay(n, 0))).toEqual([1_000, 2_000, 4_000]);
  });

  it("never below half the first wait nor above the cap, whatever the count of failures", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 1_000_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (failures, random) => {
          const wait = retryDelay(failures, random);
          expect(wait).toBeGreaterThanOrEqual(RETRY_FIRST_MS / 2);
          expect(wait).toBeLessThanOrEqual(RETRY_MAX_MS);
        },
      ),
    );
  });
});
