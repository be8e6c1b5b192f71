import { matchingHasKey, matchingKey, matchingRight } from "./matching";
import { orderingKey, orderingRight } from "./ordering";
import { type Scene, secondOptionsFor } from "./schema";
import { blanksOf, fillBlanksCorrect, withoutBlankAnswers } from "./fill-blanks";
import { numberCorrect, numberKey } from "./number-answer";

/**
 * The answer key of a scene: options flagged `correct` (docs/product-design.md
 * "Activities", correct answers); an ordering's item order (always there) and a matching's pairs. Pure and shared by the server (verdicts, stats, results)
 * and the editor's preview.
 */
export type Verdict = "correct" | "incorrect";
type Option = { id: string; label: string; correct?: boolean };

const flagged = (list: Option[] | undefined) => (list ?? []).filter((o) => o.correct === true).map((o) => o.id);

/** Every option list of a scene (two-step: first, shared second, second per first choice). */
function optionLists(scene: Scene): Option[][] {
  switch (scene.type) {
    case "single_choice":
    case "multiple_choice":
      return [scene.content.options];
    case "two_step":
      return [
        scene.content.first.options,
        scene.content.second.options ?? [],
        ...Object.values(scene.content.second.optionsByFirst ?? {}),
      ];
    default:
      return [];
  }
}

/** Whether the scene has a key: an option marked correct, a fill-in-the-blanks text (its blanks), a number's correct value. */
export function sceneHasKey(scene: Scene): boolean {
  if (scene.type === "ordering") return true;
  if (scene.type === "matching") return matchingHasKey(scene.content);
  if (scene.type === "fill_blanks") return true;
  if (scene.type === "number") return scene.content.correct !== undefined;
  return optionLists(scene).some((list) => flagged(list).length > 0);
}

/**
 * The scene without its key: the one function that takes correct flags (a number's correct value too) and
 * the blanks' answers out of content sent to a respondent before feedback is allowed.
 */
export function withoutKey<S extends { type: string; content: unknown }>(scene: S): S {
  const stripped = withoutFlags(scene);
  const c = stripped.content as { text?: unknown } | null;
  if (scene.type !== "fill_blanks" || typeof c?.text !== "string") return stripped;
  return { ...stripped, content: { ...c, text: withoutBlankAnswers(c.text) } };
}

function withoutFlags<S extends { type: string; content: unknown }>(scene: S): S {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => k !== "correct")
          .map(([k, v]) => [k, strip(v)]),
      );
    }
    return value;
  };
  return { ...scene, content: strip(scene.content) };
}

/**
 * The option ids to show as correct (two-step: the correct first options, then their correct second options);
 * an ordering's item ids in the right order; a matching's pairs as `left>right`; a fill-in-the-blanks' accepted
 * answers, one string per blank, `/` between them, as written (markup kept); a number's correct value and tolerance.
 */
export function correctIdsOf(scene: Scene): string[] {
  if (scene.type === "ordering") return orderingKey(scene.content);
  if (scene.type === "matching") return matchingKey(scene.content);
  if (scene.type === "fill_blanks") return blanksOf(scene.content.text).map((list) => list.join("/"));
  if (scene.type === "number") return numberKey(scene.content);
  if (scene.type !== "two_step") return optionLists(scene).flatMap(flagged);
  const firsts = flagged(scene.content.first.options);
  const seconds = (firsts.length > 0 ? firsts : scene.content.first.options.map((o) => o.id)).flatMap((f) =>
    flagged(secondOptionsFor(scene.content, f)),
  );
  return [...firsts, ...new Set(seconds)];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Correct or not by the scene's key; null when the scene has no key or there is no answer. */
export function verdictOf(scene: Scene, answer: unknown): Verdict | null {
  if (!sceneHasKey(scene) || !answer || typeof answer !== "object") return null;
  const a = answer as Record<string, unknown>;
  const ok = (() => {
    switch (scene.type) {
      case "single_choice":
        return flagged(scene.content.options).includes(String(a.choice));
      case "multiple_choice":
        return Array.isArray(a.choices) && sameSet(a.choices.map(String), flagged(scene.content.options));
      case "two_step": {
        const first = flagged(scene.content.first.options);
        const second = flagged(secondOptionsFor(scene.content, String(a.first)));
        return (
          (first.length === 0 || first.includes(String(a.first))) &&
          (second.length === 0 || second.includes(String(a.second)))
        );
      }
      case "ordering":
        return orderingRight(scene.content, a);
      case "matching":
        return matchingRight(scene.content, a);
      case "fill_blanks":
        return fillBlanksCorrect(scene.content.text, a.blanks);
      case "number":
        return numberCorrect(scene.content, a.number);
      default:
        return false;
    }
  })();
  return ok ? "correct" : "incorrect";
}

/**
 * Whether a respondent may see the verdicts now (docs/product-design.md "Activities", feedback timing):
 * never; after each answer (every answered scene); at the end (once the activity is complete
 * or they answered every scene of it).
 */
export function feedbackAllowed(
  timing: "never" | "after_answer" | "at_end",
  progress: { complete: boolean; finished: boolean },
): boolean {
  if (timing === "after_answer") return true;
  return timing === "at_end" && (progress.complete || progress.finished);
}

export interface SceneFeedback {
  verdict: Verdict;
  /** The option ids to mark correct (correctIdsOf). */
  correct: string[];
}

/** The verdict and correct options of each answered scene that has a key (scenes without one are left out). */
export function feedbackFor(
  scenes: { id: string; scene: Scene | null }[],
  answers: Record<string, unknown>,
): Record<string, SceneFeedback> {
  const out: Record<string, SceneFeedback> = {};
  for (const { id, scene } of scenes) {
    const verdict = scene ? verdictOf(scene, answers[id]) : null;
    if (scene && verdict) out[id] = { verdict, correct: correctIdsOf(scene) };
  }
  return out;
}
