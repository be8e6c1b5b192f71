import { describe, expect, it } from "vitest";
import { checkCatalogues } from "@/platform/i18n/check";
import { loadMessages } from "@/platform/i18n/messages";

const ok = {
  ja: { A: { hello: "漢字です {name}" } },
  "ja-ruby": { A: { hello: "|漢字(かんじ)です {name}" } },
  "ja-kana": { A: { hello: "かんじです {name}" } },
};

describe("catalogue check", () => {
  it("passes the shipped catalogues", () => {
    const all = { ja: loadMessages("ja"), "ja-ruby": loadMessages("ja-ruby"), "ja-kana": loadMessages("ja-kana") };
    expect(checkCatalogues(all)).toEqual([]);
  });

  it("passes consistent catalogues", () => {
    expect(checkCatalogues(ok)).toEqual([]);
  });

  it("reports a missing key", () => {
    expect(checkCatalogues({ ...ok, ja: { A: {} } })).toContain("ja: missing A.hello");
  });

  it("reports kanji in the kana catalogue", () => {
    expect(checkCatalogues({ ...ok, "ja-kana": { A: { hello: "漢字です" } } })[0]).toMatch(
      /kanji in the kana catalogue/,
    );
  });

  it("reports kanji without a reading in the reading-aids catalogue", () => {
    expect(checkCatalogues({ ...ok, "ja-ruby": { A: { hello: "漢字です" } } })[0]).toMatch(/kanji without a reading/);
  });

  it("reports a mono-ruby reading whose parts do not match the characters", () => {
    const problems = checkCatalogues({ ...ok, "ja-ruby": { A: { hello: "|漢字(か・ん・じ)です {name}" } } });
    expect(problems).toEqual([
      "ja-ruby: A.hello: mono-ruby needs one ・-separated reading per character: 漢字(か・ん・じ)",
    ]);
  });

  it("reports markup that does not parse and ICU that does not format", () => {
    const problems = checkCatalogues({
      ...ok,
      ja: { A: { hello: "**太字 {name}" } },
      "ja-kana": { A: { hello: "{name" } },
    });
    expect(problems.some((p) => p.includes("markup does not parse"))).toBe(true);
    expect(problems.some((p) => p.includes("ICU syntax"))).toBe(true);
  });
});
