import { describe, expect, it } from "vitest";
import { lighthouseSection, withLighthouseSection } from "../lighthouse/report";

const bench = "# Benchmarks\n\n## Timings\n\n| a |\n\n## How the answer path reached its targets\n\ntext\n";

describe("the Lighthouse section of docs/benchmarks.md", () => {
  it("is appended when missing and replaced when present, leaving the bench's sections as they are", () => {
    const once = withLighthouseSection(bench, "## Lighthouse\n\nfirst\n");
    expect(once).toBe(`${bench}\n## Lighthouse\n\nfirst\n`);
    const twice = withLighthouseSection(once, "## Lighthouse\n\nsecond\n");
    expect(twice).toBe(`${bench}\n## Lighthouse\n\nsecond\n`);
    expect(lighthouseSection(twice)).toBe("## Lighthouse\n\nsecond\n");
  });

  it("is found up to the next section when one follows it", () => {
    const md = "# B\n\n## Lighthouse\n\nscores\n\n## Later\n\nx\n";
    expect(lighthouseSection(md)).toBe("## Lighthouse\n\nscores\n");
    expect(withLighthouseSection(md, "## Lighthouse\n\nnew\n")).toBe("# B\n\n## Lighthouse\n\nnew\n\n## Later\n\nx\n");
    expect(lighthouseSection("# B\n\n## Timings\n")).toBe("");
  });
});
