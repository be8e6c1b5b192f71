import { z } from "zod";

/**
 * Text from a URL or a form as PostgreSQL can hold it: NUL and lone
 * surrogates (which no stored text contains) become U+FFFD, so a search or a
 * filter with them is an ordinary one that matches nothing instead of an error.
 */
export function storableText(text: string): string {
  return text.replace(/\0/g, "\uFFFD").toWellFormed();
}

/** A filter value compared as a whole (a class name, …): storable, trimmed, empty means none; longer than `max` matches nothing. */
export const filterText = (max: number) =>
  z
    .string()
    .transform((s) =>
      storableText(s)
        .trim()
        .slice(0, max + 1),
    )
    .transform((s) => s || undefined);

/**
 * A search box's text: storable and trimmed; empty means no search. A text
 * longer than `max` (the longest field searched) is cut to max + 1 characters,
 * which no field contains: an empty result rather than an error or everything.
 */
export const searchText = filterText;

/** `%…%` for LIKE/ILIKE with the text's own % _ and \ taken literally (PostgreSQL's default escape character). */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
export function escapeLike(text: string): string {
  return text.replace(/[%_\\]/g, (c) => `\\${c}`);
}
