import { describe, expect, it } from "vitest";
import {
  defaultContent,
  draftErrors,
  nextOptionId,
  normalize,
  setAt,
  textPaths,
} from "@/features/activities/ui/scene-content";
import { editedSceneSchema } from "@/features/activities/shared/scene-schema";
import { SCENE_TYPES } from "@/features/scenes/shared/schema";
import { createTranslator } from "use-intl/core";
import { DISPLAY_LANGUAGES, localeTagOf } from "@/platform/i18n/languages";
import { loadMessages } from "@/platform/i18n/messages";

describe("scene editor content", () => {
  it("textPaths lists every text of a draft and never an option id (furigana on save)", () => {
    const draft = {
      prompt: "問",
      first: { prompt: "一", options: [{ id: "a", label: "甲" }] },
      second: { optionsByFirst: { a: [{ id: "x", label: "乙" }] } },
      maxLength: 10,
    };
    expect(textPaths(draft)).toEqual([
      ["prompt"],
      ["first", "prompt"],
      ["first", "options", 0, "label"],
      ["second", "optionsByFirst", "a", 0, "label"],
    ]);
  });

  it.each(SCENE_TYPES.flatMap((type) => DISPLAY_LANGUAGES.map((lang) => [type, lang] as const)))(
    "a new %s scene starts with content the stored schema accepts (%s catalogue)",
    (type, lang) => {
      const words = createTranslator({
        locale: localeTagOf(lang),
        messages: loadMessages(lang),
        namespace: "SceneEditor.defaults",
      });
      expect(editedSceneSchema.safeParse({ type, content: defaultContent(type, words) }).success).toBe(true);
    },
  );

  it("changes a copy at a path and leaves the draft alone; undefined removes a key", () => {
    const draft = {
      prompt: "問い",
      options: [
        { id: "a", label: "あ" },
        { id: "b", label: "い" },
      ],
    };
    const next = setAt(draft, ["options", 1, "label"], "う");
    expect(next).toEqual({
      prompt: "問い",
      options: [
        { id: "a", label: "あ" },
        { id: "b", label: "う" },
      ],
    });
    expect(draft.options[1]!.label).toBe("い");
    expect(setAt({ prompt: "x", body: "y" }, ["body"], undefined)).toEqual({ prompt: "x" });
    expect(setAt({}, ["second", "optionsByFirst", "a"], [])).toEqual({ second: { optionsByFirst: { a: [] } } });
  });

  it("gives a new option an id no other option has", () => {
    expect(
      nextOptionId([
        { id: "o3", label: "" },
        { id: "o1", label: "" },
      ]),
    ).toBe("o4");
    expect(nextOptionId([{ id: "x", label: "" }])).toBe("o2");
  });

  it("leaves blank optional texts out and names each problem for the form", () => {
    expect(normalize("info", { prompt: "見出し", body: "  " })).toEqual({ prompt: "見出し" });
    const parsed = editedSceneSchema.safeParse({
      type: "single_choice",
      content: { prompt: " ", options: [{ id: "a", label: "x".repeat(4001) }] },
    });
    expect(parsed.success).toBe(false);
    expect(draftErrors(parsed.error!.issues)).toEqual({
      "content.prompt": "required",
      "content.options": "fewOptions",
      "content.options.0.label": "tooLong",
    });
    const bad = editedSceneSchema.safeParse({ type: "info", content: { prompt: "\uD800" } });
    expect(draftErrors(bad.error!.issues)).toEqual({ "content.prompt": "invalidCharacters" });
  });
});

describe("own versions (every part of the editor follows this tab's saves only)", () => {
  it("moves on along this tab's own versions and stops at the first one someone else made", async () => {
    const { followOwnVersions, recordOwnVersion } = await import("@/features/activities/ui/own-versions");
    const id = crypto.randomUUID();
    expect(followOwnVersions(id, 3)).toBe(3);
    recordOwnVersion(id, 4);
    expect(followOwnVersions(id, 3)).toBe(4);
    expect(followOwnVersions(id, 4)).toBe(4);
    recordOwnVersion(id, 6); // 5 is someone else's: nothing past it is followed
    expect(followOwnVersions(id, 3)).toBe(4);
    recordOwnVersion(id, 5);
    expect(followOwnVersions(id, 3)).toBe(6);
    expect(followOwnVersions(id, 2)).toBe(2); // 3 was not this tab's
    expect(followOwnVersions(crypto.randomUUID(), 3)).toBe(3);
  });
});
