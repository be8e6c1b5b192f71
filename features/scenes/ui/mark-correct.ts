import { pairsOf } from "@/features/scenes/shared/matching";
import type { RenderedOption, RenderedScene } from "./types";

/**
 * The scene with the options named in `ids` marked correct (a respondent's verdicts, once allowed); an ordering's
 * right order and a matching's pairs (key.ts `correctIdsOf`) become its key, a fill-in-the-blanks' accepted answers
 * and a number's value and tolerance are shown beside the student's answer.
 */
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
    case "ordering":
      return { ...scene, key: ids };
    case "matching":
      return { ...scene, key: pairsOf(ids) };
    case "fill_blanks":
      return { ...scene, answers: ids.map((blank) => blank.split("/")) };
    case "number":
      return { ...scene, correct: { value: Number(ids[0]), tolerance: Number(ids[1] ?? 0) } };
    default:
      return scene;
  }
}
