import { describe, expect, it } from "vitest";
import { markComment, markInput } from "@/features/results/shared/mark-schema";
import { isMarkedSceneType } from "@/features/results/shared/mark-verdicts";

const id = "00000000-0000-4000-8000-000000000001";

describe("mark input", () => {
  it("normalises a comment: line ends made \\n, trimmed before the 500-character limit; tabs and line breaks kept", () => {
    expect(markComment.parse("  一行目\r\n二行目\r三行目\t \n")).toBe("一行目\n二行目\n三行目");
    expect(markComment.parse(`  ${"あ".repeat(500)}  `)).toHaveLength(500);
    expect(markComment.safeParse("あ".repeat(501)).success).toBe(false);
    expect(markComment.parse("a\tb")).toBe("a\tb");
  });

  it("refuses control characters (NUL, ESC, DEL), unknown verdicts, ids that are not uuids, and a non-string comment", () => {
    for (const bad of ["a\u0000b", "a\u001bb", "a\u007fb"]) expect(markComment.safeParse(bad).success).toBe(false);
    expect(markInput.safeParse({ activityId: id, responseId: id, verdict: "half", comment: "" }).success).toBe(false);
    expect(markInput.safeParse({ activityId: "1", responseId: id, verdict: null, comment: "" }).success).toBe(false);
    expect(markInput.safeParse({ activityId: id, responseId: id, verdict: null, comment: 5 }).success).toBe(false);
    expect(
      markInput.safeParse({ activityId: id, responseId: id, verdict: "partly", comment: "<script>x</script>" }).success,
    ).toBe(true);
  });

  it("verdicts are given on free text and drawing only", () => {
    expect(
      ["free_text", "drawing", "single_choice", "multiple_choice", "two_step", "scale", "info"].filter(
        isMarkedSceneType,
      ),
    ).toEqual(["free_text", "drawing"]);
  });
});
