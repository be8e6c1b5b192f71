import { describe, expect, it } from "vitest";
import { canDelete, canEditActivity, endsGuideSession, isPermutation } from "@/features/activities/shared/policy";
import { changeModeSchema, copyTemplateSchema, saveOrderSchema } from "@/features/activities/shared/schema";

describe("activity policy", () => {
  it("lets staff edit an activity (each within their scope), never students", () => {
    expect(canEditActivity("teacher")).toBe(true);
    expect(canEditActivity("manager")).toBe(true);
    expect(canEditActivity("student")).toBe(false);
  });
  it("deletes only archived activities", () => {
    expect(canDelete("archived")).toBe(true);
    expect(canDelete("active")).toBe(false);
  });
  it("ends the live session only when leaving guide", () => {
    expect(endsGuideSession("guide", "self")).toBe(true);
    expect(endsGuideSession("guide", "guide")).toBe(false);
    expect(endsGuideSession("standby", "guide")).toBe(false);
  });
  it("accepts only permutations", () => {
    expect(isPermutation(["b", "a"], ["a", "b"])).toBe(true);
    expect(isPermutation(["a", "a"], ["a", "b"])).toBe(false);
    expect(isPermutation(["a"], ["a", "b"])).toBe(false);
    expect(isPermutation(["a", "c"], ["a", "b"])).toBe(false);
  });
});

describe("activity input schemas", () => {
  const id = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  it("refuse unknown modes, bad ids and long titles", () => {
    expect(changeModeSchema.safeParse({ activityId: id, mode: "paused" }).success).toBe(false);
    expect(changeModeSchema.safeParse({ activityId: "1; drop table", mode: "self" }).success).toBe(false);
    expect(copyTemplateSchema.safeParse({ templateId: "science-dissolve", title: "x".repeat(201) }).success).toBe(
      false,
    );
    expect(copyTemplateSchema.safeParse({ templateId: "../etc/passwd" }).success).toBe(false);
    expect(
      saveOrderSchema.safeParse({ activityId: id, version: 1, title: "t", order: [id], groupOrders: { b: [id] } })
        .success,
    ).toBe(false);
    expect(
      saveOrderSchema.safeParse({ activityId: id, version: 1, title: "t", order: [id], groupOrders: { B: null } })
        .success,
    ).toBe(true);
  });
});
