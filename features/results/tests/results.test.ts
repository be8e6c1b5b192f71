import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvRow } from "@/platform/csv";
import { filterFromParams, filterQuery, showFromParams } from "@/features/results/shared/schema";

describe("CSV for Excel", () => {
  it("quotes commas, quotes and line breaks, and defuses formulas", () => {
    expect(csvCell("ふつう")).toBe("ふつう");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("一行目\n二行目")).toBe('"一行目\n二行目"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-1+1")).toBe("'-1+1");
    expect(csvCell(-1)).toBe("-1");
    expect(csvCell(null)).toBe("");
    expect(csvCell({ first: "a" })).toBe('"{""first"":""a""}"');
    expect(csvRow(["a", 1, ""])).toBe("a,1,\r\n");
    expect(CSV_BOM).toBe("\uFEFF");
  });
});

describe("stats filters", () => {
  it("keeps valid filters and drops bad ones, both ways", () => {
    expect(filterFromParams(new URLSearchParams("group=B&class=1%3A2&mode=self"))).toEqual({
      group: "B",
      class: "1:2",
      mode: "self",
    });
    expect(filterFromParams({ group: "b; drop", class: "", mode: "later" })).toEqual({
      group: undefined,
      class: undefined,
      mode: undefined,
    });
    expect(filterQuery({ group: "A", mode: "guide" })).toBe("group=A&mode=guide");
  });
});

describe("stats page: the one list shown whole", () => {
  it("takes the respondents or one scene's texts or missing list, and nothing else", () => {
    const scene = "0b6f3c1e-9d2a-4c7e-8f10-2a3b4c5d6e7f";
    expect(showFromParams({ show: "respondents" })).toBe("respondents");
    expect(showFromParams(new URLSearchParams(`show=texts-${scene}`))).toBe(`texts-${scene}`);
    expect(showFromParams({ show: [`missing-${scene}`, "respondents"] })).toBe(`missing-${scene}`);
    for (const bad of ["", "all", "texts-", `texts-${scene}x`, `other-${scene}`, "respondents<script>"])
      expect(showFromParams({ show: bad })).toBeUndefined();
    expect(showFromParams({})).toBeUndefined();
  });
});
