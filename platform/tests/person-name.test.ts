import { describe, expect, it } from "vitest";
import { endsWithHonorific, rubyParts } from "@/platform/names/person-name";

describe("honorific (added once)", () => {
  it.each(["はなちゃん", "たろうくん", "陽翔君", "山田さん", "佐藤様", "田中さま", "試験 先生", "はなちゃん "])(
    "%j already carries one",
    (name) => {
      expect(endsWithHonorific(name)).toBe(true);
    },
  );
  it.each(["はな", "青木 陽翔", "さんた", "くんちゃ太郎", "先生太"])("%j gets one", (name) => {
    expect(endsWithHonorific(name)).toBe(false);
  });
});

describe("ruby per part of the name", () => {
  it("pairs each space-separated part with its reading", () => {
    expect(rubyParts({ base: "山田 花子", reading: "やまだ はなこ" })).toEqual([
      { base: "山田", reading: "やまだ" },
      { base: "花子", reading: "はなこ" },
    ]);
  });
  it("keeps the whole reading when the parts do not pair, and leaves kana parts bare", () => {
    expect(rubyParts({ base: "山田花子", reading: "やまだ はなこ" })).toEqual([
      { base: "山田花子", reading: "やまだ はなこ" },
    ]);
    expect(rubyParts({ base: "山田 はな", reading: "やまだ はな" })).toEqual([
      { base: "山田", reading: "やまだ" },
      { base: "はな", reading: null },
    ]);
    expect(rubyParts({ base: "はるくん", reading: null })).toEqual([{ base: "はるくん", reading: null }]);
  });
});
