/**
 * The 学習指導要領コード (MEXT's 16-digit curriculum code) as a teacher types it and as an activity file carries it:
 * 16 digits (full-width ones read as digits, spaces around ignored) or empty to clear it; anything else is refused,
 * in the editor and in a file.
 */
import { describe, expect, it } from "vitest";
import { readCurriculumCode } from "@/features/activities/shared/curriculum-code";
import { setCurriculumCodeSchema, setSceneCurriculumCodeSchema } from "@/features/activities/shared/schema";
import { contentOfFile, parseActivityFile, toActivityFile } from "@/features/activities/shared/file-format";

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe("学習指導要領コード", () => {
  it("takes 16 digits, full-width digits and spaces around as typed on a Japanese keyboard, and empty as none", () => {
    expect(readCurriculumCode("8260243111200000")).toBe("8260243111200000");
    expect(readCurriculumCode(" ８２６０２４３１１１２０００００ ")).toBe("8260243111200000");
    expect(readCurriculumCode("")).toBeNull();
    expect(readCurriculumCode("   ")).toBeNull();
  });

  it.each([
    ["15 digits", "826024311120000"],
    ["17 digits", "82602431112000001"],
    ["hyphens", "8260-2431-1120-0000"],
    ["spaces inside", "8260 2431 1120 0000"],
    ["letters", "826024311120000A"],
    ["a negative number", "-826024311120000"],
    ["another script's digits", "٨٢٦٠٢٤٣١١١٢٠٠٠٠٠"],
  ])("refuses %s", (_what, typed) => {
    expect(readCurriculumCode(typed)).toBeUndefined();
  });

  it("the editor's actions take the code as typed and refuse one that is not 16 digits", () => {
    const activityId = "0b0e5d36-0f84-4a43-9a24-7c1b0b8f0d11";
    const sceneId = "6f1c1f52-33a4-4a57-9d3b-1f0b6c1e2a10";
    expect(setCurriculumCodeSchema.parse({ activityId, curriculumCode: "８２６０２４３１１１２０００００" })).toEqual({
      activityId,
      curriculumCode: "8260243111200000",
    });
    expect(setSceneCurriculumCodeSchema.parse({ activityId, sceneId, curriculumCode: "" }).curriculumCode).toBeNull();
    const refused = setSceneCurriculumCodeSchema.safeParse({ activityId, sceneId, curriculumCode: "8260-2431" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path)).toEqual([["curriculumCode"]]);
  });

  it("an activity file carries the activity's and each scene's code, and an import reads them back", () => {
    const file = toActivityFile({
      title: "題",
      actorType: "student",
      curriculumCode: "8260243111200000",
      scenes: [
        { id: "u1", type: "info", content: { prompt: "はじめ" }, curriculumCode: "8260243111300000" },
        { id: "u2", type: "info", content: { prompt: "つぎ" }, curriculumCode: null },
      ],
      sceneOrders: [],
    });
    expect(file.curriculumCode).toBe("8260243111200000");
    expect(file.scenes.map((s) => s.curriculumCode)).toEqual(["8260243111300000", undefined]);
    const parsed = parseActivityFile(enc(file));
    if (!parsed.ok) throw new Error(parsed.problem.code);
    const content = contentOfFile(parsed.file);
    expect(content.curriculumCode).toBe("8260243111200000");
    expect(content.scenes.map((s) => s.curriculumCode)).toEqual(["8260243111300000", undefined]);
  });

  it("a file with a code that is not 16 digits is refused, naming the field", () => {
    const file = toActivityFile({
      title: "題",
      actorType: "student",
      scenes: [{ id: "u1", type: "info", content: { prompt: "はじめ" } }],
      sceneOrders: [],
    });
    expect(parseActivityFile(enc({ ...file, curriculumCode: "8260-2431" }))).toEqual({
      ok: false,
      problem: { code: "invalid", field: "curriculumCode" },
    });
    expect(parseActivityFile(enc({ ...file, scenes: [{ ...file.scenes[0], curriculumCode: "12" }] }))).toMatchObject({
      ok: false,
      problem: { code: "sceneContent", scene: 1 },
    });
  });
});
