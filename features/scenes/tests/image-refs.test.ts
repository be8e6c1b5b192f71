import { describe, expect, it } from "vitest";
import { precheckImage } from "@/features/activities/ui/image-upload";
import { imageIdsOf, rewriteImages } from "@/features/scenes/shared/image-refs";
import { MAX_IMAGE_BYTES } from "@/features/scenes/shared/image-limits";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";

describe("image references in scene content (features/scenes/shared/image-refs.ts)", () => {
  const content = {
    prompt: "図",
    image: { id: A, alt: "あ", width: 10, height: 10 },
    first: {
      prompt: "一",
      options: [
        { id: "x", label: "x", image: { id: B, alt: "い", width: 5, height: 5 } },
        { id: "y", label: "y", image: { id: A, alt: "う", width: 10, height: 10 } },
      ],
    },
    second: {
      prompt: "二",
      optionsByFirst: { x: [{ id: "p", label: "p", image: { id: C, alt: "え", width: 1, height: 1 } }] },
    },
  };

  it("finds every placed image once, at any depth (scene, options, options by first choice)", () => {
    expect(imageIdsOf(content).sort()).toEqual([A, B, C]);
    expect(imageIdsOf([content, { prompt: "x" }]).sort()).toEqual([A, B, C]);
    expect(imageIdsOf({ prompt: "image", body: "id" })).toEqual([]);
  });

  it("rewrites ids and sizes, keeps each alt text, and leaves out an image the map does not know", () => {
    const to = new Map([
      [A, { id: C, width: 7, height: 3 }],
      [B, { id: A, width: 2, height: 2 }],
    ]);
    const out = rewriteImages(content, to);
    expect(out.image).toEqual({ id: C, alt: "あ", width: 7, height: 3 });
    expect(out.first.options.map((o) => o.image)).toEqual([
      { id: A, alt: "い", width: 2, height: 2 },
      { id: C, alt: "う", width: 7, height: 3 },
    ]);
    expect(out.second.optionsByFirst.x[0]).toEqual({ id: "p", label: "p" });
    expect(content.image.id).toBe(A); // the input is not changed
  });
});

describe("what the editor checks before sending an image", () => {
  it("refuses a file over 5 MiB or of another declared type; the server decides on the bytes", () => {
    expect(precheckImage({ size: 1000, type: "image/png" })).toBeNull();
    expect(precheckImage({ size: 1000, type: "image/webp" })).toBeNull();
    expect(precheckImage({ size: MAX_IMAGE_BYTES + 1, type: "image/jpeg" })).toBe("tooLarge");
    expect(precheckImage({ size: 1000, type: "image/svg+xml" })).toBe("type");
    expect(precheckImage({ size: 1000, type: "image/gif" })).toBe("type");
  });
});
