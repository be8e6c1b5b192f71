import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerText, INVALID_CHARACTERS } from "@/features/scenes/shared/schema";

/** Text in answers is accepted exactly when PostgreSQL can store it. */
describe("answerText", () => {
  const schema = answerText(50);
  const storable = (s: string) => s.isWellFormed() && !s.includes("\u0000");
  const units = fc.oneof(
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    fc.constantFrom("\u0000", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "😀", "𠮷"),
  );

  it("accepts a string iff it is well-formed UTF-16 without NUL and within the length", () => {
    fc.assert(
      fc.property(fc.string({ unit: units, maxLength: 40 }), (s) => {
        expect(schema.safeParse(s).success).toBe(storable(s) && s.length <= 50);
      }),
      { numRuns: 2_000 },
    );
  });

  it("says which rule failed", () => {
    expect(schema.safeParse("a\u0000").error?.issues[0]?.message).toBe(INVALID_CHARACTERS);
    expect(schema.safeParse("\uDE00").error?.issues[0]?.message).toBe(INVALID_CHARACTERS);
    expect(schema.safeParse("x".repeat(51)).error?.issues[0]?.code).toBe("too_big");
    expect(schema.safeParse("😀".repeat(25)).success).toBe(true);
  });
});
