import { describe, expect, it } from "vitest";
import { parseActivityFile, toActivityFile } from "@/features/activities/shared/file-format";
import { editedSceneSchema } from "@/features/activities/shared/scene-schema";
import { defaultContent, draftErrors, textPaths } from "@/features/activities/ui/scene-content";
import { correctIdsOf, feedbackFor, sceneHasKey, verdictOf, withoutKey } from "@/features/scenes/shared/key";
import { pairsRight } from "@/features/scenes/shared/matching";
import { positionsRight, shuffledFor } from "@/features/scenes/shared/ordering";
import { answerSchemaFor, sceneSchema } from "@/features/scenes/shared/schema";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import { renderSceneWith } from "@/features/scenes/ui/render-scene-core";
import { whenToSave } from "@/features/scenes/ui/scene-view";
import type { RenderedScene } from "@/features/scenes/ui/types";

const item = (id: string) => ({ id, label: `ラベル${id}` });
const ordering = sceneSchema.parse({
  type: "ordering",
  content: { prompt: "古い順に", items: ["x7", "k2", "q9", "a1"].map(item) },
});
const matching = sceneSchema.parse({
  type: "matching",
  content: {
    prompt: "国と首都",
    left: [
      { ...item("jp"), correct: "tk" },
      { ...item("fr"), correct: "pa" },
      { ...item("it"), correct: "ro" },
    ],
    right: ["pa", "tk", "ro", "be"].map(item),
  },
});
const plain = (s: string) => s;
const render = (scene: typeof ordering, seed: string, key = false) =>
  renderSceneWith({ id: "scene-1", ...scene }, "ja", plain, { seed, key })!;
const ids = (r: RenderedScene) => (r.type === "ordering" ? r.items.map((i) => i.id) : []);

describe("ordering and matching content", () => {
  it("refuses fewer than 2 or more than 8 items, and repeated ids", () => {
    const with_ = (items: unknown[]) => sceneSchema.safeParse({ type: "ordering", content: { prompt: "q", items } });
    expect(with_([item("a")]).success).toBe(false);
    expect(with_(Array.from({ length: 9 }, (_, i) => item(`i${i}`))).success).toBe(false);
    expect(with_(Array.from({ length: 8 }, (_, i) => item(`i${i}`))).success).toBe(true);
    expect(with_([item("a"), item("a")]).success).toBe(false);
  });

  it("refuses a left item whose right item is not there, with the editor's message on that left item", () => {
    const bad = editedSceneSchema.safeParse({
      type: "matching",
      content: {
        prompt: "q",
        left: [
          { ...item("a"), correct: "zz" },
          { ...item("b"), correct: "r1" },
        ],
        right: [item("r1"), item("r2")],
      },
    });
    expect(bad.success).toBe(false);
    expect(draftErrors(bad.error!.issues)).toEqual({ "content.left.0.correct": "matchRequired" });
  });

  it("names an item list's size in the editor as items (2–8), not options", () => {
    const few = editedSceneSchema.safeParse({ type: "ordering", content: { prompt: "q", items: [item("a")] } });
    expect(draftErrors(few.error!.issues)).toEqual({ "content.items": "fewItems" });
    const many = editedSceneSchema.safeParse({
      type: "matching",
      content: {
        prompt: "q",
        left: [
          { ...item("a"), correct: "r0" },
          { ...item("b"), correct: "r0" },
        ],
        right: Array.from({ length: 9 }, (_, i) => item(`r${i}`)),
      },
    });
    expect(draftErrors(many.error!.issues)).toEqual({ "content.right": "manyItems" });
  });

  it("starts a new scene with random item ids that say nothing of the order, and never offers an id to furigana", () => {
    const t = (key: string, v?: { n: number }) => `${key}${v?.n ?? ""}`;
    const a = defaultContent("ordering", t) as { items: { id: string }[] };
    const b = defaultContent("ordering", t) as { items: { id: string }[] };
    expect(a.items.map((i) => i.id)).not.toEqual(b.items.map((i) => i.id));
    const m = defaultContent("matching", t);
    expect(editedSceneSchema.safeParse({ type: "matching", content: m }).success).toBe(true);
    expect(textPaths(m).every((p) => p[p.length - 1] !== "correct" && p[p.length - 1] !== "id")).toBe(true);
  });
});

describe("ordering and matching answers", () => {
  it("takes an ordering answer with every item once, and refuses a missing, repeated or unknown one", () => {
    const schema = answerSchemaFor(ordering);
    expect(schema.safeParse({ order: ["a1", "q9", "k2", "x7"] }).success).toBe(true);
    expect(schema.safeParse({ order: ["a1", "q9", "k2"] }).success).toBe(false);
    expect(schema.safeParse({ order: ["a1", "a1", "k2", "x7"] }).success).toBe(false);
    expect(schema.safeParse({ order: ["a1", "q9", "k2", "zz"] }).success).toBe(false);
    expect(schema.safeParse({ order: ["a1", "q9", "k2", "x7"], extra: 1 }).success).toBe(false);
  });

  it("takes a matching answer with a right item for every left item (one right item may serve two)", () => {
    const schema = answerSchemaFor(matching);
    expect(schema.safeParse({ pairs: { jp: "tk", fr: "tk", it: "be" } }).success).toBe(true);
    expect(schema.safeParse({ pairs: { jp: "tk", fr: "pa" } }).success).toBe(false);
    expect(schema.safeParse({ pairs: { jp: "tk", fr: "pa", it: "xx" } }).success).toBe(false);
    expect(schema.safeParse({ pairs: { jp: "tk", fr: "pa", it: "ro", de: "be" } }).success).toBe(false);
  });

  it("marks by the key: the teacher's order, and every pair", () => {
    expect(sceneHasKey(ordering) && sceneHasKey(matching)).toBe(true);
    expect(verdictOf(ordering, { order: ["x7", "k2", "q9", "a1"] })).toBe("correct");
    expect(verdictOf(ordering, { order: ["k2", "x7", "q9", "a1"] })).toBe("incorrect");
    expect(verdictOf(matching, { pairs: { jp: "tk", fr: "pa", it: "ro" } })).toBe("correct");
    expect(verdictOf(matching, { pairs: { jp: "tk", fr: "pa", it: "be" } })).toBe("incorrect");
    expect(verdictOf(matching, { pairs: "tk" })).toBe("incorrect");
  });

  it("saves a matching only once every left item has its match; an ordering at once", () => {
    const m = render(matching as never, "s");
    expect(whenToSave(m, { pairs: { jp: "tk" } })).toBe("never");
    expect(whenToSave(m, { pairs: { jp: "tk", fr: "pa", it: "ro" } })).toBe("now");
    expect(whenToSave(render(ordering, "s"), { order: ["a1"] })).toBe("now");
  });
});

describe("what a respondent receives", () => {
  it("shows each student the items shuffled, the same every time, never in the right order", () => {
    const seeds = Array.from({ length: 30 }, (_, i) => `student-${i}`);
    const orders = seeds.map((s) => ids(render(ordering, s)).join());
    expect(orders.every((o) => o !== "x7,k2,q9,a1")).toBe(true);
    expect(new Set(orders).size).toBeGreaterThan(3);
    expect(ids(render(ordering, "student-3"))).toEqual(ids(render(ordering, "student-3")));
    const two = sceneSchema.parse({ type: "ordering", content: { prompt: "q", items: [item("a"), item("b")] } });
    expect(seeds.every((s) => shuffledFor(two.type === "ordering" ? two.content.items : [], s)[0]!.id === "b")).toBe(
      true,
    );
  });

  it("leaves the key out unless asked for: no order, no pairs, no correct fields", () => {
    const o = render(ordering, "s");
    const m = render(matching as never, "s");
    expect(o.type === "ordering" && o.key).toBeNull();
    expect(m.type === "matching" && m.key).toBeNull();
    expect(JSON.stringify(m)).not.toContain("correct");
    expect(JSON.stringify(withoutKey(matching))).not.toContain('"correct"');
    const staff = render(matching as never, "s", true);
    expect(staff.type === "matching" && staff.key).toEqual({ jp: "tk", fr: "pa", it: "ro" });
  });

  it("renders a matching from a respondent's copy of the content (its pairs taken out), which marks nothing", () => {
    const copy = withoutKey(matching);
    expect(sceneSchema.safeParse(copy).success).toBe(true);
    const shown = renderSceneWith({ id: "m", ...copy }, "ja", plain);
    expect(shown?.type === "matching" && shown.left.map((l) => l.id)).toEqual(["jp", "fr", "it"]);
    expect(verdictOf(sceneSchema.parse(copy), { pairs: { jp: "tk", fr: "pa", it: "ro" } })).toBeNull();
    // the editor (and the server's save) requires every pair
    const edited = editedSceneSchema.safeParse(copy);
    expect(draftErrors(edited.error!.issues)).toEqual({
      "content.left.0.correct": "matchRequired",
      "content.left.1.correct": "matchRequired",
      "content.left.2.correct": "matchRequired",
    });
  });

  it("shows the key as feedback once allowed (the right order; the pairs)", () => {
    expect(correctIdsOf(ordering)).toEqual(["x7", "k2", "q9", "a1"]);
    const fb = feedbackFor([{ id: "m", scene: matching }], { m: { pairs: { jp: "tk", fr: "tk", it: "ro" } } });
    expect(fb.m).toEqual({ verdict: "incorrect", correct: ["jp>tk", "fr>pa", "it>ro"] });
    const marked = markCorrect(render(matching as never, "s"), fb.m!.correct);
    expect(marked.type === "matching" && marked.key).toEqual({ jp: "tk", fr: "pa", it: "ro" });
    const order = markCorrect(render(ordering, "s"), correctIdsOf(ordering));
    expect(order.type === "ordering" && order.key).toEqual(["x7", "k2", "q9", "a1"]);
  });
});

describe("ordering and matching statistics and files", () => {
  it("counts per position and per pair from item × position and left × right", () => {
    if (ordering.type !== "ordering" || matching.type !== "matching") throw new Error("types");
    const rows = positionsRight(ordering.content, { x7: { "0": 3, "1": 1 }, k2: { "0": 1 } });
    expect(rows.map((r) => r.right)).toEqual([3, 0, 0, 0]);
    const pairs = pairsRight(matching.content, { jp: { tk: 2, pa: 3 }, fr: { pa: 4 } });
    expect(pairs.map((p) => [p.right, p.common])).toEqual([
      [2, "pa"],
      [4, "pa"],
      [0, null],
    ]);
  });

  it("survive the activity file's export and import", () => {
    const file = toActivityFile({
      title: "t",
      actorType: "student",
      scenes: [
        { id: "a", ...ordering },
        { id: "b", ...matching },
      ],
      sceneOrders: [],
    });
    const parsed = parseActivityFile(new TextEncoder().encode(JSON.stringify(file)));
    expect(parsed.ok && parsed.file.scenes).toEqual([
      { id: "s1", ...ordering },
      { id: "s2", ...matching },
    ]);
  });
});
