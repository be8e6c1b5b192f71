/**
 * The pure rules of the OneRoster mapping (docs/oneroster.md "Import mapping"):
 * grade codes, the 組 of a homeroom title, readings, stable ids. No database.
 */
import { createHash } from "node:crypto";
import { toHiragana } from "@/features/activities/shared/furigana-align";

/** J1 → 1, P6 → 6, H3 → 3, E2 → 2; null for anything else. */
export function gradeOfCode(code: string | undefined | null): number | null {
  const m = /^[PJHE]([1-9])$/.exec(code ?? "");
  return m ? Number(m[1]) : null;
}

/** The 組 students carry (StudentDetail.className) for a homeroom: 「1年2組」→ "2", 「3年A組」→ "A"; else classCode's last two digits; else the title. */
export function classNameOf(title: string, classCode: string | null): string {
  const m = /(?:年)?\s*([^\s年]+?)\s*組$/u.exec(title.normalize("NFKC"));
  if (m?.[1]) return m[1].slice(0, 10);
  const code = /^\d{4}$/.exec(classCode ?? "");
  if (code) return String(Number(code[0].slice(2)));
  return title.slice(0, 10);
}

const join = (...parts: (string | null | undefined)[]) =>
  parts
    .filter((p) => p && p.trim())
    .map((p) => p!.trim())
    .join(" ");

/** The display name 「姓 名」 the product shows. */
export const displayName = (family: string, given: string) => join(family, given);

/** The reading the product stores (hiragana, as the forms and the seed do), or null. */
export function readingOf(kanaFamily: string | null, kanaGiven: string | null): string | null {
  const reading = join(kanaFamily, kanaGiven);
  return reading ? toHiragana(reading) : null;
}

/** Hiragana → full-width katakana, as the format's exporters write readings. */
export function toKatakana(s: string): string {
  return s.replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));
}

/**
 * A UUID shaped like v4 (the profile's validators check the v4 pattern) derived from a key, for
 * rows the product does not store (academic sessions, courses, roles, enrollments): the same key
 * gives the same id at every export.
 */
export function derivedId(key: string): string {
  const h = createHash("sha256").update(`manabiya:oneroster:${key}`).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The 年度 of a date in Japan (April to March): 2027-03-31 → 2026. */
export function schoolYearOf(date: Date): number {
  const jst = new Date(date.getTime() + 9 * 3600_000);
  return jst.getUTCMonth() >= 3 ? jst.getUTCFullYear() : jst.getUTCFullYear() - 1;
}
