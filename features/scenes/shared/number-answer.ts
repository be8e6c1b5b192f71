import { z } from "zod";

/**
 * Number (数値) scenes (features/scenes/README.md "Number"): the student types a number; the teacher may give
 * the correct value (`correct`) and an absolute tolerance, and a unit shown after the input. `correct` is taken
 * out of content sent to a respondent like every option's flag (key.ts `withoutKey`).
 */
export const NUMBER_LIMITS = { abs: 1e12, unitLength: 20, inputLength: 40 } as const;
/** Message key (Scenes) of typed text that is not a number. */
export const NOT_A_NUMBER = "notANumber";

export const numberValue = z.number().finite().min(-NUMBER_LIMITS.abs).max(NUMBER_LIMITS.abs);

/** Minus signs other than "-" a student may type: − (U+2212), ー (長音), ‐ ‑ ‒ – — ― and the full-width －. */
const MINUS = /^[\u2212\u30FC\u2010-\u2015\uFF0D]/;
const PLAIN = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$|^[+-]?\.\d+$/;

/**
 * The number a student typed, or null when it is not one. Accepted: full-width digits and signs (NFKC),
 * spaces around it, `,` between groups of three digits, a decimal point, a leading minus written as -, −, ー,
 * －, ‐ or –, a leading +. Not accepted: exponents, several points, commas elsewhere, units or words.
 */
export function parseNumberInput(typed: string): number | null {
  if (typed.length > NUMBER_LIMITS.inputLength) return null;
  const s = typed.trim().replace(MINUS, "-").normalize("NFKC").replace(/\s+/g, "");
  if (!PLAIN.test(s)) return null;
  const n = Number(s.replace(/,/g, ""));
  return numberValue.safeParse(n).success ? n : null;
}

/** Whether `value` is within the tolerance of the correct value. */
export function numberCorrect(content: { correct?: number; tolerance?: number }, value: unknown): boolean {
  if (content.correct === undefined || typeof value !== "number") return false;
  // binary floating point's error allowed for (a billionth of the value): 0.1 + 0.2 is within 0.3 ± 0
  const slack = 1e-9 * Math.max(1, Math.abs(content.correct));
  return Math.abs(value - content.correct) <= (content.tolerance ?? 0) + slack;
}

/** The key as feedback carries it (key.ts `correctIdsOf`): the correct value and the tolerance; none without a value. */
export function numberKey(content: { correct?: number; tolerance?: number }): string[] {
  return content.correct === undefined ? [] : [String(content.correct), String(content.tolerance ?? 0)];
}

/** A histogram of counted values (value → count): one bar per value when there are few, else `bins` equal ranges. */
export function histogramOf(counted: Record<string, number>, bins = 10): { from: number; to: number; n: number }[] {
  const entries = Object.entries(counted)
    .map(([v, n]) => [Number(v), n] as const)
    .sort((x, y) => x[0] - y[0]);
  if (entries.length <= bins) return entries.map(([v, n]) => ({ from: v, to: v, n }));
  const min = entries[0]![0];
  const width = (entries[entries.length - 1]![0] - min) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, n: 0 }));
  for (const [v, n] of entries) out[Math.min(bins - 1, Math.floor((v - min) / width))]!.n += n;
  return out;
}
