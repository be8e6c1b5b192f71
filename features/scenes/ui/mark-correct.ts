import type { RenderedOption, RenderedScene } from "./types";

/** The scene with the options named in `ids` marked correct (a respondent's verdicts, once allowed). */
export function markCorrect(scene: RenderedScene, ids: string[] | undefined): RenderedScene {
  if (!ids || ids.length === 0) return scene;
  const mark = (list: RenderedOption[]) =>
    list.map((o): RenderedOption => (ids.includes(o.id) ? { ...o, correct: true } : o));
  switch (scene.type) {
    case "single_choice":
    case "multiple_choice":
      return { ...scene, options: mark(scene.options) };
    case "two_step":
      return {
        ...scene,
        firstOptions: mark(scene.firstOptions),
        secondOptions: Object.fromEntries(Object.entries(scene.secondOptions).map(([k, v]) => [k, mark(v)])),
      };
    default:
      return scene;
  }
}
