import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "@/platform/i18n/dates";
import { toPlainText } from "@/platform/richtext/plain";

const HAN = /\p{Script=Han}/u;
// 2026-11-21 23:30 UTC is 2026-11-22 08:30 in Tokyo
const date = new Date("2026-11-21T23:30:00Z");

describe("dates by display language", () => {
  it("formats in school time", () => {
    expect(formatDate(date, "ja")).toBe("2026年11月22日");
    expect(formatDateTime(date, "ja")).toBe("2026年11月22日 8:30");
  });
  it("spells kana without kanji", () => {
    expect(formatDate(date, "ja-kana")).toBe("2026ねん11がつ22にち");
    expect(formatDateTime(date, "ja-kana")).not.toMatch(HAN);
  });
  it("gives ruby readings in the reading-aids language", () => {
    const markup = formatDate(date, "ja-ruby");
    expect(toPlainText(markup, "ja")).toBe("2026年11月22日");
    expect(toPlainText(markup, "ja-kana")).toBe("2026ねん11がつ22にち");
  });
});
