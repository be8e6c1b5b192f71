import { describe, expect, it } from "vitest";
import { sceneProblem, whenToSave } from "@/features/scenes/ui/scene-view";
import type { RenderedScene } from "@/features/scenes/ui/types";

const twoStep = { id: "s", type: "two_step" } as unknown as RenderedScene;

describe("what a two-step answer lacks", () => {
  it("names the reason when the choices are made and the reason is empty or blank", () => {
    expect(sceneProblem(twoStep, { first: "a", second: "b", reason: "" })).toBe("reasonRequired");
    expect(sceneProblem(twoStep, { first: "a", second: "b", reason: " \n　" })).toBe("reasonRequired");
    expect(sceneProblem(twoStep, { first: "a", second: "b", reason: "なくならないから" })).toBeNull();
  });

  it("asks for the choices first", () => {
    expect(sceneProblem(twoStep, null)).toBe("requiredInput");
    expect(sceneProblem(twoStep, { first: "a", second: "", reason: "理由" })).toBe("requiredInput");
  });

  it("an incomplete answer is never sent; other scenes have nothing to lack", () => {
    expect(whenToSave(twoStep, { first: "a", second: "b", reason: "" })).toBe("never");
    expect(sceneProblem({ id: "c", type: "single_choice" } as unknown as RenderedScene, null)).toBeNull();
  });
});
