import { describe, expect, it } from "vitest";
import { libraryFilterSchema, publishSchema, tagsSchema } from "@/features/activities/shared/library-schema";
import { GRADES, SUBJECTS } from "@/features/activities/shared/library-tags";

describe("library tags", () => {
  it("subject and grade come from closed lists; empty means none", () => {
    expect(tagsSchema.parse({ subject: "", grade: "", unit: "" })).toEqual({
      subject: undefined,
      grade: undefined,
      unit: "",
    });
    expect(tagsSchema.parse({ subject: "math", grade: "j2" })).toEqual({ subject: "math", grade: "j2", unit: "" });
    for (const bad of [{ subject: "Math" }, { subject: "__proto__" }, { grade: "7" }, { grade: ["e1"] }])
      expect(tagsSchema.safeParse(bad).success).toBe(false);
    expect(SUBJECTS).toContain("other");
    expect(GRADES).toHaveLength(12);
  });

  it("the unit is trimmed, its spaces folded, storable, at most 100 characters", () => {
    expect(tagsSchema.parse({ unit: "  一次\n\t方程式  " }).unit).toBe("一次 方程式");
    expect(tagsSchema.parse({ unit: "a\u0000b" }).unit).toBe("a\uFFFDb");
    expect(tagsSchema.safeParse({ unit: "あ".repeat(100) }).success).toBe(true);
    expect(tagsSchema.safeParse({ unit: "あ".repeat(101) }).success).toBe(false);
  });

  it("publishing names a school and an activity by uuid", () => {
    expect(publishSchema.safeParse({ activityId: crypto.randomUUID() }).success).toBe(false);
    expect(publishSchema.safeParse({ schoolId: "x", activityId: crypto.randomUUID() }).success).toBe(false);
    expect(publishSchema.safeParse({ schoolId: crypto.randomUUID(), activityId: crypto.randomUUID() }).success).toBe(
      true,
    );
  });

  it("the page's URL: unknown tags and pages mean all and the first", () => {
    expect(libraryFilterSchema.parse({ subject: "x", grade: ["e1", "e2"], page: "-3", q: ["  水 ", "b"] })).toEqual({
      q: "水",
      subject: undefined,
      grade: "e1",
      unit: undefined,
      page: 1,
    });
    expect(libraryFilterSchema.parse({}).page).toBe(1);
  });

  it("the filter's grade is a grade or a whole stage (e, j, h); a stage is never a tag", () => {
    expect(libraryFilterSchema.parse({ grade: "j" }).grade).toBe("j");
    expect(libraryFilterSchema.parse({ grade: "h" }).grade).toBe("h");
    expect(libraryFilterSchema.parse({ grade: "x" }).grade).toBeUndefined();
    expect(tagsSchema.safeParse({ grade: "j" }).success).toBe(false);
  });
});
