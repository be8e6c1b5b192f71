import type { z } from "zod";
import { ALT_REQUIRED, INVALID_CHARACTERS, type SceneType } from "@/features/scenes/shared/schema";
import { MATCH_REQUIRED } from "@/features/scenes/shared/matching";
import { BLANK_EMPTY, BLANKS_COUNT } from "@/features/scenes/shared/fill-blanks";

/** A scene's content while it is being edited: the stored JSON shape, any values. */
export type Draft = Record<string, unknown>;
export type Path = (string | number)[];
type Option = { id: string; label: string };

/** `value` at `path` of `draft`, copied along the way (the draft itself is never changed). */
export function setAt(draft: unknown, path: Path, value: unknown): Draft {
  const [head, ...rest] = path;
  if (head === undefined) return value as Draft;
  const copy = (Array.isArray(draft) ? [...(draft as unknown[])] : { ...(draft as Draft) }) as Record<
    string | number,
    unknown
  >;
  const next = rest.length === 0 ? value : setAt(copy[head] ?? (typeof rest[0] === "number" ? [] : {}), rest, value);
  if (next === undefined && !Array.isArray(copy)) delete copy[head];
  else copy[head] = next;
  return copy as Draft;
}

export function getAt(draft: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (v, k) => (v && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined),
    draft,
  );
}

/** The paths of every text of a draft (prompts, labels, options' labels), never an id (an option's, or the right item a matching's left item names). */
export function textPaths(draft: unknown, at: Path = []): Path[] {
  const last = at[at.length - 1];
  if (typeof draft === "string") return at.length > 0 && last !== "id" && last !== "correct" ? [at] : [];
  if (Array.isArray(draft)) return draft.flatMap((v, i) => textPaths(v, [...at, i]));
  if (draft && typeof draft === "object") return Object.entries(draft).flatMap(([k, v]) => textPaths(v, [...at, k]));
  return [];
}

/** A short option id not used in `options` (o1, o2, …). */
export function nextOptionId(options: Option[]): string {
  const used = new Set(options.map((o) => o.id));
  let n = options.length + 1;
  while (used.has(`o${n}`)) n++;
  return `o${n}`;
}

/**
 * A new ordering or matching item's id: random, so that ids say nothing of the right order or pairs (a respondent's
 * page has the ids; features/scenes/shared/ordering.ts).
 */
export function newItemId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return `i${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Optional texts left blank are left out (the stored schema refuses an empty string). */
export function normalize(type: SceneType, draft: Draft): Draft {
  const blank = (v: unknown) => typeof v === "string" && v.trim() === "";
  let out = draft;
  if (type === "info" && blank(out.body)) out = setAt(out, ["body"], undefined);
  if (type === "free_text" && blank(out.placeholder)) out = setAt(out, ["placeholder"], undefined);
  if (type === "drawing" && blank(out.instructions)) out = setAt(out, ["instructions"], undefined);
  if (type === "number" && blank(out.unit)) out = setAt(out, ["unit"], undefined);
  return out;
}

/** Valid new content of each type, worded in the teacher's display language. */
export type DefaultKey =
  | "info"
  | "prompt"
  | "option"
  | "minLabel"
  | "maxLabel"
  | "first"
  | "second"
  | "reason"
  | "drawing"
  | "ordering"
  | "matching"
  | "item"
  | "blanks"
  | "number"
  | "words";
export function defaultContent(type: SceneType, t: (key: DefaultKey, values?: { n: number }) => string): Draft {
  const options = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `o${i + 1}`, label: t("option", { n: i + 1 }) }));
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: newItemId(), label: t("item", { n: i + 1 }) }));
  switch (type) {
    case "info":
      return { prompt: t("info") };
    case "single_choice":
    case "multiple_choice":
      return { prompt: t("prompt"), options: options(2) };
    case "free_text":
      return { prompt: t("prompt") };
    case "scale":
      return { prompt: t("prompt"), minLabel: t("minLabel"), maxLabel: t("maxLabel") };
    case "two_step":
      return {
        prompt: t("prompt"),
        first: { prompt: t("first"), options: options(2) },
        second: { prompt: t("second"), options: options(2) },
        reasonPrompt: t("reason"),
      };
    case "drawing":
      return { prompt: t("drawing") };
    case "ordering":
      return { prompt: t("ordering"), items: items(3) };
    case "matching": {
      const right = items(2);
      return { prompt: t("matching"), left: items(2).map((l, i) => ({ ...l, correct: right[i]!.id })), right };
    }
    case "fill_blanks":
      return { prompt: t("prompt"), text: t("blanks") };
    case "number":
      return { prompt: t("number") };
    case "word_cloud":
      return { prompt: t("words") };
  }
}

export type ErrorKey =
  | "altRequired"
  | "required"
  | "tooLong"
  | "fewOptions"
  | "manyOptions"
  | "invalidCharacters"
  | "number"
  | "invalid"
  | "fewItems"
  | "manyItems"
  | "matchRequired"
  | "blanksCount"
  | "blankEmpty";

/** The lists of an ordering's or matching's items (2–8, not options' 2–12). */
const ITEM_LISTS = new Set(["items", "left", "right"]);

/** The editor's message for one zod issue of the stored schema. */
export function errorKeyOf(issue: z.core.$ZodIssue): ErrorKey {
  if (issue.message === INVALID_CHARACTERS) return "invalidCharacters";
  if (issue.message === ALT_REQUIRED) return "altRequired";
  if (issue.message === MATCH_REQUIRED) return "matchRequired";
  const items = ITEM_LISTS.has(String(issue.path[issue.path.length - 1]));
  if (items && issue.code === "too_small" && issue.origin === "array") return "fewItems";
  if (items && issue.code === "too_big" && issue.origin === "array") return "manyItems";
  if (issue.message === BLANKS_COUNT) return "blanksCount";
  if (issue.message === BLANK_EMPTY) return "blankEmpty";
  if (issue.code === "too_small")
    return issue.origin === "array" ? "fewOptions" : issue.origin === "string" ? "required" : "number";
  if (issue.code === "too_big")
    return issue.origin === "array" ? "manyOptions" : issue.origin === "string" ? "tooLong" : "number";
  if (issue.code === "invalid_type" && issue.expected === "string") return "required";
  if (issue.code === "invalid_type" && issue.expected === "number") return "number";
  return "invalid";
}

/** Messages by field path (`content.options.0.label`; `content` for the whole scene). */
export function draftErrors(issues: readonly z.core.$ZodIssue[]): Record<string, ErrorKey> {
  const out: Record<string, ErrorKey> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "content";
    out[key] ??= errorKeyOf(issue);
  }
  return out;
}

/** What every field of the scene form gets: the draft's value, its errors, and how to change it. */
export interface FieldProps {
  path: Path;
  value: unknown;
  errors: Record<string, ErrorKey>;
  onChange: OnChange;
}
/** `typed`: the change is typing in the field (the undo history groups it), not a toolbar or list action. */
export type OnChange = (path: Path, value: unknown, typed?: boolean) => void;
/** A field's key among the errors (draftErrors): `content.options.0.label`. */
export const keyOf = (path: Path) => ["content", ...path].join(".");
