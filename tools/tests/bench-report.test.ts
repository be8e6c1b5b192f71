import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkExactlyOnce, isThrottled, tallyOutcomes } from "../bench/checks";
import {
  benchExitCode,
  type BenchRun,
  benchmarksMarkdown,
  compareRuns,
  mergeRun,
  consoleLine,
  formatRatio,
  REPORT_HEADER,
  tableLine,
  timingRow,
} from "../bench/verdict";

describe("bench report rows", () => {
  it("prints target, measured value, ratio and PASS or MISS on every row", () => {
    const row = { scenario: "answer burst", target: "p99 < 500 ms", measured: "p99 250 ms", ratio: 0.5, ok: true };
    expect(consoleLine(row)).toBe("PASS answer burst: target p99 < 500 ms; measured p99 250 ms; ratio 0.50");
    expect(consoleLine({ ...row, ok: false, ratio: 1.234 })).toMatch(/^MISS .*ratio 1\.23$/);
  });

  it("writes the same columns in the docs table, escaping a | in a cell", () => {
    expect(REPORT_HEADER).toBe("| scenario | target | measured | ratio | result |\n|---|---|---|---|---|");
    expect(tableLine({ scenario: "a|b", target: "t", measured: "m", ratio: 2, ok: false })).toBe(
      "| a\\|b | t | m | 2.00 | **MISS** |",
    );
    expect(tableLine({ scenario: "s", target: "t", measured: "m", ratio: 0.25, ok: true })).toBe(
      "| s | t | m | 0.25 | PASS |",
    );
  });

  it("shows a dash for a row that has no ratio (an older scenario) and rounds large ratios", () => {
    expect(formatRatio(undefined)).toBe("—");
    expect(formatRatio(Number.NaN)).toBe("—");
    expect(formatRatio(12.6)).toBe("13");
    expect(formatRatio(0.004)).toBe("0.00");
  });

  it("judges a timing case on its median against the limit, ratio median / limit", () => {
    const row = timingRow({ name: "CSV", target: "at once", limitMs: 1000 }, [30, 10, 20, 2000, 40]);
    expect(row).toMatchObject({ ok: true, ratio: 0.03 });
    expect(row.measured).toBe("median 30 ms (min 10, max 2000, n=5)");
    expect(row.target).toBe("median ≤ 1000 ms: at once");
    expect(timingRow({ name: "x", target: "t", limitMs: 10 }, [11, 12, 13]).ok).toBe(false);
  });

  it("exits non-zero when any row missed", () => {
    const pass = { scenario: "a", target: "t", measured: "m", ok: true };
    expect(benchExitCode([pass, pass])).toBe(0);
    expect(benchExitCode([pass, { ...pass, ok: false }])).toBe(1);
  });
});

describe("exactly-once check of acknowledged answers", () => {
  const ack = (userId: string, key: string) => ({ userId, sceneId: "s1", key });
  it("passes when every acknowledged answer is stored once with its key", () => {
    expect(
      checkExactlyOnce([ack("u1", "k1"), ack("u2", "k2")], [ack("u1", "k1"), ack("u2", "k2"), ack("u3", "k3")]),
    ).toEqual({
      acknowledged: 2,
      missing: 0,
      duplicates: 0,
      otherKey: 0,
      ok: true,
    });
  });
  it("finds an acknowledged answer that is missing, stored twice, or stored with another save's key", () => {
    const result = checkExactlyOnce(
      [ack("u1", "k1"), ack("u2", "k2"), ack("u3", "k3")],
      [ack("u2", "k2"), ack("u2", "k2"), ack("u3", "other")],
    );
    expect(result).toEqual({ acknowledged: 3, missing: 1, duplicates: 1, otherKey: 1, ok: false });
  });
});

describe("throttled sign-in responses", () => {
  it("counts a 429, a throttled action result and a redirect to the throttled sign-in page", () => {
    expect(isThrottled({ status: 429, headers: {}, body: "" })).toBe(true);
    expect(
      isThrottled({
        status: 200,
        headers: {},
        body: '0:{"a":"$@1"}\n1:{"ok":false,"error":"tooManyRequests","retryMinutes":15}',
      }),
    ).toBe(true);
    expect(
      isThrottled({
        status: 302,
        headers: { location: "http://x/signin?error=CredentialsSignin&code=tooManyRequests%3A15" },
        body: "",
      }),
    ).toBe(true);
    expect(isThrottled({ status: 200, headers: {}, body: '1:{"ok":true,"name":"a"}' })).toBe(false);
    expect(isThrottled({ status: 302, headers: { location: "http://x/dashboard/teacher" }, body: "" })).toBe(false);
  });
  it("does not take a page for throttled because its message catalogue has the throttled message", () => {
    const page =
      '<html><script>self.__next_f.push([1,"{\\"AuthErrors\\":{\\"tooManyRequests\\":\\"しばらくしてから\\"}}"])</script></html>';
    expect(isThrottled({ status: 200, headers: {}, body: page })).toBe(false);
    expect(isThrottled({ status: 200, headers: {}, body: '{"AuthErrors":{"tooManyRequests":"x"}}' })).toBe(false);
  });
  it("tallies outcomes, keeping throttled apart from other failures", () => {
    expect(tallyOutcomes([null, "throttled", "page 500", null, "throttled"])).toEqual({
      ok: 2,
      throttled: 2,
      failed: 1,
      failures: { throttled: 2, "page 500": 1 },
    });
  });
});

describe("the docs/benchmarks.md a full run writes", () => {
  it("holds tools/bench/notes.md as it stands: a note edited in the document alone would be lost at the next --merge", () => {
    const doc = readFileSync("docs/benchmarks.md", "utf8");
    expect(doc).toContain(readFileSync("tools/bench/notes.md", "utf8").trimEnd());
  });

  it("has the console's columns in both tables, the notes and the kept Lighthouse section", () => {
    const pass = { scenario: "csv", target: "median ≤ 1000 ms", measured: "median 12 ms", ratio: 0.012, ok: true };
    const miss = {
      scenario: "stats page",
      target: "median ≤ 500 ms",
      measured: "median 1600 ms",
      ratio: 3.2,
      ok: false,
    };
    const run = { machine: "2 cores", timings: [pass], load: [miss] };
    // rendered from the run as docs/benchmarks.json holds it
    const md = benchmarksMarkdown(JSON.parse(JSON.stringify(run)) as BenchRun, {
      notes: "## How\n\nnotes\n",
      lighthouse: "## Lighthouse\n\nkept\n",
    });
    const tables = md.split(REPORT_HEADER);
    expect(tables).toHaveLength(3);
    expect(md).toContain(tableLine(pass));
    expect(md).toContain(tableLine(miss));
    expect(md).toContain("| stats page | median ≤ 500 ms | median 1600 ms | 3.20 | **MISS** |");
    expect(md.indexOf("## How")).toBeGreaterThan(md.indexOf(tableLine(miss)));
    expect(md.trimEnd().endsWith("## Lighthouse\n\nkept")).toBe(true);
    expect(md).not.toMatch(/issue/i);
  });
});

describe("comparing two runs (--compare=FILE)", () => {
  const row = (scenario: string, ok: boolean) => ({ scenario, target: "t", measured: "m", ratio: 0.5, ok });
  const before = { machine: "m", timings: [row("pdf", true)], load: [row("fan-out", true), row("storm", false)] };

  it("finds nothing between a run and the same rows with other numbers", () => {
    const after = { ...before, load: before.load.map((r) => ({ ...r, measured: "other", ratio: 0.9 })) };
    expect(compareRuns(before, after)).toEqual([]);
  });

  it("names a verdict that changed and a row only one run has", () => {
    const after = { machine: "m", timings: [row("pdf", false)], load: [row("fan-out", true), row("new", true)] };
    expect(compareRuns(before, after)).toEqual(["PASS → MISS: pdf", "only before: storm", "only now: new"]);
  });
});

describe("a part re-run into the documented run (--only=… --merge)", () => {
  const row = (scenario: string, measured: string, ok = true) => ({ scenario, target: "t", measured, ratio: 0.5, ok });
  const full = {
    machine: "2026-11-28 (quiet)",
    timings: [row("pdf", "old")],
    load: [row("fan-out", "old"), row("pooled fan-out", "old", false), row("storm", "old")],
  };
  const part = { machine: "2026-11-29 (again)", timings: [], load: [row("pooled fan-out", "new"), row("city", "new")] };

  it("replaces the rows it measured in place, adds new ones after the last load row, keeps the others", () => {
    const merged = mergeRun(full, part, ["pooled", "city"]);
    expect(merged.load.map((r) => `${r.scenario}: ${r.measured}`)).toEqual([
      "fan-out: old",
      "pooled fan-out: new",
      "storm: old",
      "city: new",
    ]);
    expect(merged.timings).toEqual(full.timings);
    expect(merged.machine).toBe(full.machine);
  });

  it("says in the docs which rows were re-run, when and on what load, and the newest re-run wins", () => {
    const once = mergeRun(full, part, ["pooled", "city"]);
    const twice = mergeRun(once, { ...part, machine: "2026-11-30 (third)", load: [row("city", "newer")] }, ["city"]);
    expect(twice.reruns).toEqual([
      { machine: "2026-11-29 (again)", only: "pooled,city", scenarios: ["pooled fan-out"] },
      { machine: "2026-11-30 (third)", only: "city", scenarios: ["city"] },
    ]);
    const md = benchmarksMarkdown(twice, { notes: "", lighthouse: "" });
    expect(md).toContain("Written by `npm run bench` on 2026-11-28 (quiet)");
    expect(md).toContain("`npm run bench -- --only=city --merge` on 2026-11-30 (third)");
    expect(md).toContain("| pooled fan-out ¹ | t | new |");
    expect(md).toContain("| city ² | t | newer |");
    expect(md).toContain("| storm | t | old |");
  });
});
