import { describe, expect, it } from "vitest";
import { readTimestamp, toEpochMillisString, withWriteTimestamps } from "@/platform/time";

const NOW = new Date("2026-04-01T00:00:00.000Z");
const now = () => NOW;
const MS = 1_700_000_000_123;

describe("readTimestamp (docs/requirements.md §3)", () => {
  it.each([
    ["a number", MS],
    ["a numeric string (the legacy storage form)", String(MS)],
    ["a Date", new Date(MS)],
    ["an ISO string", new Date(MS).toISOString()],
    ["a database timestamp {seconds, nanoseconds}", { seconds: Math.floor(MS / 1000), nanoseconds: 123_456_789 }],
    ["an export timestamp {_seconds, _nanoseconds}", { _seconds: Math.floor(MS / 1000), _nanoseconds: 123_000_000 }],
    ["an object with toMillis()", { toMillis: () => MS }],
    ["an object with toDate()", { toDate: () => new Date(MS) }],
  ])("normalises %s", (_label, input) => {
    expect(readTimestamp(input, now).getTime()).toBe(MS);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["an empty string", ""],
    ["garbage", "yesterday-ish"],
    ["NaN", Number.NaN],
    ["an object", { foo: 1 }],
  ])("turns %s into now", (_label, input) => {
    expect(readTimestamp(input, now)).toEqual(NOW);
  });

  it("writes epoch milliseconds as a string", () => {
    expect(toEpochMillisString(new Date(MS))).toBe(String(MS));
  });
});

describe("withWriteTimestamps", () => {
  it("defaults createdAt and updatedAt to now", () => {
    const out = withWriteTimestamps({ name: "a" }, now);
    expect(out).toEqual({ name: "a", createdAt: NOW, updatedAt: NOW });
  });
  it("keeps and normalises given values", () => {
    const out = withWriteTimestamps({ createdAt: String(MS), updatedAt: null }, now);
    expect(out.createdAt.getTime()).toBe(MS);
    expect(out.updatedAt).toEqual(NOW);
  });
});
