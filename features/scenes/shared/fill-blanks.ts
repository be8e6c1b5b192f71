import { z } from "zod";
import { toPlainText } from "@/platform/richtext/plain";
import { foldAnswer } from "./answer-fold";

/**
 * Fill-in-the-blanks (穴埋め) scenes (features/scenes/README.md "Fill in the blanks"): the text is rich-text
 * markup (platform/richtext) in which each blank is written `[[answer/other answer]]`, its accepted answers
 * separated by `/`. An accepted answer may carry ruby (`[[|東京(とうきょう)]]`): then its base and its reading
 * are both accepted. Typed answers are compared folded (answer-fold.ts).
 */
export const FILL_BLANKS_LIMITS = { blanks: 10, answersPerBlank: 10, answerLength: 100 } as const;
/** Message keys of the editor (SceneEditor.errors) for a text whose blanks are wrong. */
export const BLANKS_COUNT = "blanksCount";
export const BLANK_EMPTY = "blankEmpty";

const BLANK = /\[\[([^[\]\n]*)\]\]/g;
const SEPARATOR = "/";

/** The accepted answers of each blank of `text`, as written (markup kept), in order. */
export function blanksOf(text: string): string[][] {
  return [...text.matchAll(BLANK)].map((m) => m[1]!.split(SEPARATOR).map((a) => a.trim()));
}

/** The text around the blanks: one more part than there are blanks. */
export function textParts(text: string): string[] {
  return text.split(BLANK).filter((_, i) => i % 2 === 0);
}

/** The text with every blank's answers replaced by `…` (still valid content): what a respondent receives. */
export function withoutBlankAnswers(text: string): string {
  return text.replace(BLANK, "[[…]]");
}

/** An accepted answer's plain forms: as written, and its reading when it carries ruby. */
export function acceptedForms(answer: string): string[] {
  const base = toPlainText(answer, "ja");
  const reading = toPlainText(answer, "ja-kana");
  return base === reading ? [base] : [base, reading];
}

/** Whether `typed` matches one of a blank's accepted answers (both folded). */
export function blankMatches(accepted: string[], typed: string): boolean {
  const folded = foldAnswer(typed);
  return folded !== "" && accepted.some((a) => acceptedForms(a).some((f) => foldAnswer(f) === folded));
}

/** The blanks' rules, checked on the stored text: 1–10 blanks, each with 1–10 non-empty accepted answers. */
export function checkBlanks(text: string, ctx: z.RefinementCtx, path: string[]) {
  const blanks = blanksOf(text);
  if (blanks.length < 1 || blanks.length > FILL_BLANKS_LIMITS.blanks) {
    ctx.addIssue({ code: "custom", path, message: BLANKS_COUNT });
    return;
  }
  const bad = blanks.some(
    (answers) =>
      answers.length > FILL_BLANKS_LIMITS.answersPerBlank ||
      answers.some(
        (a) => a === "" || a.length > FILL_BLANKS_LIMITS.answerLength || foldAnswer(toPlainText(a, "ja")) === "",
      ),
  );
  if (bad) ctx.addIssue({ code: "custom", path, message: BLANK_EMPTY });
}

/** The answer schema: one text per blank. */
export function fillBlanksAnswerSchema(blanks: number, answerText: (max: number) => z.ZodType<string>) {
  return z.object({ blanks: z.array(answerText(FILL_BLANKS_LIMITS.answerLength)).length(blanks) }).strict();
}

/** Whether every blank of the answer matches. */
export function fillBlanksCorrect(text: string, typed: unknown): boolean {
  const blanks = blanksOf(text);
  return (
    Array.isArray(typed) &&
    typed.length === blanks.length &&
    blanks.every((accepted, i) => typeof typed[i] === "string" && blankMatches(accepted, typed[i]))
  );
}
