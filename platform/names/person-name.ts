const HAN = /\p{Script=Han}/u;

/**
 * What a spreadsheet runs as a formula when a cell starts with it: `=`, `+`, `-`, `@`, a tab or
 * a carriage return. No real name or reading starts that way, so every path names enter by
 * (forms, the students CSV, OneRoster, the legacy import) refuses such a name, reading or
 * title, and the exports never carry one (docs/security.md).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** The issue message a form's schema gives such a name (what the forms translate). */
export const FORMULA_ISSUE = "formula";
/** Whether a form's field errors refuse a name as a formula. */
export function refusesFormula(fieldErrors: Record<string, string[]>): boolean {
  return Object.values(fieldErrors).some((issues) => issues.includes(FORMULA_ISSUE));
}
/** The same in words, for the command lines' English problems. */
export const FORMULA_WORDS =
  "must not start with =, +, -, @, a tab or a carriage return (a spreadsheet would run it as a formula)";

export interface NameParts {
  nickname?: string | null;
  name?: string | null;
  nameKana?: string | null;
}

/** A name as shown: its text and, when it contains kanji and the reading is known, its reading. */
export interface ShownName {
  base: string;
  reading: string | null;
}

/**
 * The reading of `base` from the person's name and its kana: the whole name, or
 * one of its space-separated parts (a nickname that is the family name, say).
 */
function readingOf(base: string, name: string | null, nameKana: string | null): string | null {
  if (!HAN.test(base)) return null;
  if (!name || !nameKana) return null;
  if (base === name.trim()) return nameKana.trim();
  const parts = name.trim().split(/\s+/);
  const readings = nameKana.trim().split(/\s+/);
  if (parts.length !== readings.length) return null;
  const index = parts.indexOf(base);
  return index >= 0 ? readings[index]! : null;
}

/** docs/requirements.md §2 order: nickname, otherwise name; null means 'guest'. */
export function shownName(person: NameParts): ShownName | null {
  const nickname = person.nickname?.trim();
  const name = person.name?.trim() || null;
  const base = nickname || name;
  if (!base) return null;
  return { base, reading: readingOf(base, name, person.nameKana?.trim() || null) };
}

/** Honorifics a nickname may already carry (はなちゃん, 山田先生): then none is added (docs/adr/0038-honorifics-on-names.md). */
const HONORIFIC = /(?:さん|くん|ちゃん|君|様|さま|先生)$/u;

export function endsWithHonorific(base: string): boolean {
  return HONORIFIC.test(base.trim());
}

/**
 * A name cut for ruby: one part per space-separated part when the name and its
 * reading split alike (family and given name), else the whole; a part without
 * kanji carries no reading.
 */
export function rubyParts(name: ShownName): ShownName[] {
  if (!name.reading) return [{ base: name.base, reading: null }];
  const bases = name.base.trim().split(/\s+/);
  const readings = name.reading.trim().split(/\s+/);
  if (bases.length < 2 || bases.length !== readings.length) return [{ base: name.base, reading: name.reading }];
  return bases.map((base, i) => ({ base, reading: HAN.test(base) ? readings[i]! : null }));
}
