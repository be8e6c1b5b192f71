import { describe, expect, it } from "vitest";
import {
  activityFileSchema,
  contentOfFile,
  parseActivityFile,
  toActivityFile,
} from "@/features/activities/shared/file-format";
import { ACTIVITY_FILE_MAX_BYTES } from "@/features/activities/shared/file-limits";
import { readTemplateFiles } from "@/features/activities/server/template-load";

const enc = (v: unknown) => new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

/** Each shipped template, wrapped as an exported file: the formats are the same. */
async function templatesAsFiles() {
  return (await readTemplateFiles()).map(({ id: _id, description: _d, ...t }) => ({
    format: "manabiya-activity",
    version: 1,
    ...t,
  }));
}

async function good() {
  return (await templatesAsFiles()).find((f) => f.scenes.length >= 3)!;
}

describe("activity file format", () => {
  it("accepts every shipped template wrapped with format and version, and keeps its scenes as they are", async () => {
    for (const file of await templatesAsFiles()) {
      const parsed = parseActivityFile(enc(file));
      expect(parsed).toMatchObject({ ok: true });
      if (parsed.ok) expect(parsed.file.scenes).toEqual(file.scenes);
    }
  });

  it("reads what toActivityFile writes, with group orders as scene keys", () => {
    const scenes = [
      { id: "u1", type: "info", content: { prompt: "はじめ" } },
      { id: "u2", type: "scale", content: { prompt: "どう?", minLabel: "いいえ", maxLabel: "はい" } },
    ];
    const file = toActivityFile({
      title: "題",
      actorType: "student",
      scenes,
      sceneOrders: [{ group: "B", sceneIds: ["u2", "u1"] }],
    });
    expect(file.groupOrders).toEqual({ B: ["s2", "s1"] });
    expect(JSON.stringify(file)).not.toMatch(/u1|u2/);
    const parsed = parseActivityFile(enc(file));
    expect(parsed.ok && parsed.file).toEqual({ ...file, scenes: file.scenes.map((s) => ({ ...s })) });
  });

  it("carries when students see their verdicts (how the activity plays); 'never' and older files without it read as never; an unknown timing is refused", () => {
    const scenes = [
      {
        id: "u1",
        type: "single_choice",
        content: {
          prompt: "どれ?",
          options: [
            { id: "a", label: "あ", correct: true },
            { id: "b", label: "い" },
          ],
        },
      },
    ];
    const atEnd = toActivityFile({ title: "題", actorType: "student", feedback: "at_end", scenes, sceneOrders: [] });
    const parsed = parseActivityFile(enc(atEnd));
    expect(parsed.ok && contentOfFile(parsed.file).feedback).toBe("at_end");
    const never = toActivityFile({ title: "題", actorType: "student", feedback: "never", scenes, sceneOrders: [] });
    expect(never).not.toHaveProperty("feedback");
    const old = parseActivityFile(enc(never));
    expect(old.ok && contentOfFile(old.file).feedback).toBeUndefined();
    expect(parseActivityFile(enc({ ...atEnd, feedback: "always" }))).toMatchObject({
      ok: false,
      problem: { code: "invalid" },
    });
  });

  it("accepts a UTF-8 byte order mark", async () => {
    expect(parseActivityFile(enc(`\uFEFF${JSON.stringify(await good())}`)).ok).toBe(true);
  });

  it.each([
    ["an empty file", new Uint8Array(0), { code: "empty" }],
    ["a file of spaces", enc("  \n "), { code: "empty" }],
    ["a file over the limit", new Uint8Array(ACTIVITY_FILE_MAX_BYTES + 1).fill(32), { code: "tooLarge" }],
    [
      "binary (not UTF-8)",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]),
      { code: "binary" },
    ],
    ["text with NUL", enc('{"a":1}\u0000'), { code: "binary" }],
    ["malformed JSON", enc('{"format": "manabiya-activity", '), { code: "notJson" }],
    ["a JSON array", enc([1, 2]), { code: "notJson" }],
    ["JSON null", enc("null"), { code: "notJson" }],
    ["JSON without a format (a template file)", enc({ id: "x", title: "t" }), { code: "formatMissing" }],
    ["another format", enc({ format: "kahoot-quiz", version: 1 }), { code: "formatUnknown", found: "kahoot-quiz" }],
    [
      "a format of markup",
      enc({ format: "|漢(かん)<b>", version: 1 }),
      { code: "formatUnknown", found: "?漢?かん??b?" },
    ],
    ["version 2", enc({ format: "manabiya-activity", version: 2 }), { code: "versionUnknown", found: "2" }],
    ["version as a string", enc({ format: "manabiya-activity", version: "1" }), { code: "versionUnknown", found: "1" }],
    ["no version", enc({ format: "manabiya-activity" }), { code: "versionUnknown", found: "—" }],
  ])("refuses %s", (_name, bytes, problem) => {
    expect(parseActivityFile(bytes)).toEqual({ ok: false, problem });
  });

  it("refuses a scene type the app does not play, naming the scene and the type", async () => {
    const file = await good();
    const scenes = [...file.scenes];
    scenes[1] = { ...scenes[1]!, type: "video" as never };
    expect(parseActivityFile(enc({ ...file, scenes }))).toEqual({
      ok: false,
      problem: { code: "sceneType", scene: 2, found: "video" },
    });
  });

  it("carries a drawing scene (prompt and instructions) like any other", async () => {
    const file = await good();
    const scenes = [
      ...file.scenes,
      { id: "draw", type: "drawing" as const, content: { prompt: "|花(はな)の絵", instructions: "根も" } },
    ];
    const parsed = parseActivityFile(enc({ ...file, scenes }));
    expect(parsed.ok && parsed.file.scenes.at(-1)).toEqual({
      id: "draw",
      type: "drawing",
      content: { prompt: "|花(はな)の絵", instructions: "根も" },
    });
  });

  it("refuses content that fails the scene schema, naming the scene", async () => {
    const file = await good();
    const scenes = [...file.scenes];
    scenes[2] = {
      id: scenes[2]!.id,
      type: "single_choice",
      content: { prompt: "q", options: [{ id: "a", label: "only one" }] },
    };
    expect(parseActivityFile(enc({ ...file, scenes }))).toEqual({
      ok: false,
      problem: { code: "sceneContent", scene: 3 },
    });
  });

  it("refuses duplicate scene keys, no scenes, 101 scenes, an empty title, a bad actor type", async () => {
    const file = await good();
    const one = file.scenes[0]!;
    const bad = [
      { ...file, scenes: [one, one] },
      { ...file, scenes: [] },
      { ...file, scenes: Array.from({ length: 101 }, (_, i) => ({ ...one, id: `k${i}` })) },
      { ...file, title: "  " },
      { ...file, actorType: "manager" },
    ];
    for (const f of bad) expect(parseActivityFile(enc(f)).ok).toBe(false);
  });

  it("refuses group orders that are not a permutation of the scenes", async () => {
    const file = await good();
    const keys = file.scenes.map((s) => s.id);
    for (const groupOrders of [
      { A: keys.slice(1) },
      { A: [...keys.slice(1), keys[1]!] },
      { A: [...keys.slice(1), "nope"] },
      { a: keys },
    ]) {
      expect(parseActivityFile(enc({ ...file, groupOrders }))).toMatchObject({
        ok: false,
        problem: { code: "invalid" },
      });
    }
    expect(parseActivityFile(enc({ ...file, groupOrders: { A: [...keys].reverse() } })).ok).toBe(true);
  });

  it("refuses text PostgreSQL cannot store (NUL escape, lone surrogate)", async () => {
    const file = await good();
    for (const title of ["a\\u0000b", "a\\ud800b"]) {
      const text = JSON.stringify({ ...file, title: "TITLE" }).replace('"TITLE"', `"${title}"`);
      expect(parseActivityFile(enc(text))).toEqual({ ok: false, problem: { code: "invalidCharacters" } });
    }
  });

  it("reads a deeply nested file without recursing into it: refused where a field expects else, dropped where unknown", async () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const file = JSON.stringify(await good());
    expect(parseActivityFile(enc(file.replace(/^\{/, `{"extra":${deep},`)))).toMatchObject({ ok: true });
    expect(parseActivityFile(enc(file.replace(/"scenes":\[/, `"scenes":[${deep},`)))).toEqual({
      ok: false,
      problem: { code: "sceneType", scene: 1, found: "—" },
    });
    expect(parseActivityFile(enc(file.replace(/^\{/, `{"groupOrders":{"A":${deep}},`)))).toMatchObject({
      ok: false,
      problem: { code: "invalid" },
    });
  });

  it("drops unknown keys (no ids or other data ride along into the school)", async () => {
    const parsed = activityFileSchema.parse({ ...(await good()), schoolId: "x", createdById: "y" });
    expect(parsed).not.toHaveProperty("schoolId");
    expect(parsed).not.toHaveProperty("createdById");
  });
});
