import { FORMULA_ISSUE } from "@/platform/names/person-name";
import { studentInput, type StudentInput } from "./schema";

/** Bounds of one import (the issue's "bounded with clear messages past the bound"). */
export const MAX_CSV_BYTES = 512 * 1024;
export const MAX_CSV_ROWS = 1000;

/** The template's header; the import also accepts the English names below. */
export const CSV_COLUMNS = [
  "grade",
  "className",
  "number",
  "name",
  "nameKana",
  "nickname",
  "email",
  "group",
  "displayLanguage",
] as const;
type Column = (typeof CSV_COLUMNS)[number];
export const CSV_TEMPLATE_HEADER = [
  "学年",
  "組",
  "番号",
  "氏名",
  "ふりがな",
  "ニックネーム",
  "メールアドレス",
  "グループ",
];
const HEADER_ALIASES: Record<string, Column> = {
  学年: "grade",
  grade: "grade",
  組: "className",
  クラス: "className",
  class: "className",
  番号: "number",
  出席番号: "number",
  number: "number",
  氏名: "name",
  名前: "name",
  name: "name",
  ふりがな: "nameKana",
  よみがな: "nameKana",
  フリガナ: "nameKana",
  kana: "nameKana",
  ニックネーム: "nickname",
  nickname: "nickname",
  メールアドレス: "email",
  メール: "email",
  email: "email",
  "e-mail": "email",
  グループ: "group",
  group: "group",
  // optional: the student's display language at sign-in (not in the template)
  表示のことば: "displayLanguage",
  ことば: "displayLanguage",
  displaylanguage: "displayLanguage",
  language: "displayLanguage",
};

/** A display-language cell: an id, or the words of the language switcher. */
const LANGUAGE_WORDS: Record<string, string> = {
  ふつう: "ja",
  漢字: "ja",
  "ふつう（漢字）": "ja",
  ふりがな: "ja-ruby",
  ふりがなつき: "ja-ruby",
  ひらがな: "ja-kana",
  かな: "ja-kana",
};
const languageCell = (cell: string | undefined) =>
  cell && Object.hasOwn(LANGUAGE_WORDS, cell) ? LANGUAGE_WORDS[cell] : cell;

/** The template file: UTF-8 with a BOM (Excel opens it correctly), a header and one example row. */
export function csvTemplate(): string {
  return `\uFEFF${CSV_TEMPLATE_HEADER.join(",")}\r\n1,1,1,山田 花子,やまだ はなこ,はなこ,hanako@example.jp,A\r\n`;
}

/**
 * The file's text: UTF-8 (with or without a BOM) when the bytes are valid
 * UTF-8, otherwise Shift_JIS (what Excel in Japan writes by default).
 */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder("utf-8").decode(bytes.subarray(3));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("shift_jis").decode(bytes);
  }
}

/** RFC 4180 records (quoted fields, doubled quotes, CRLF or LF); blank lines are skipped. Each record keeps its first line number. */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const push = () => {
    fields.push(field);
    if (fields.some((f) => f.trim() !== "")) records.push({ line: start, fields });
    fields = [];
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\r" || c === "\n") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      push();
      line++;
      start = line;
    } else field += c;
  }
  if (field !== "" || fields.length > 0) push();
  return records;
}

export type CsvRowError =
  | "missingName"
  | "formulaName"
  | "badClass"
  | "badEmail"
  | "badKana"
  | "badGroup"
  | "badLanguage"
  | "duplicateEmail"
  | "duplicateSeat"
  | "emailInUse";
export type CsvFileError = "tooLarge" | "tooManyRows" | "noHeader" | "empty";

export interface CsvRow {
  line: number;
  input: StudentInput | null;
  /** What the preview shows for the row, valid or not. */
  shown: { name: string; grade: string; className: string; number: string; email: string };
  errors: CsvRowError[];
}

export type CsvCheck = { ok: true; rows: CsvRow[] } | { ok: false; error: CsvFileError };

const seatKey = (grade: number | string, className: string, number: number | string) =>
  `${grade}-${className}-${number}`;

/**
 * Reads and checks a CSV file without touching the database: the file's
 * bounds, the header, and each row (missing name, bad class, bad e-mail,
 * duplicates inside the file). `taken` adds the school's existing e-mails
 * and seats so the preview shows the same errors the import would hit.
 */
export function checkCsv(
  bytes: Uint8Array,
  taken: { emails: Set<string>; seats: Set<string> } = { emails: new Set(), seats: new Set() },
): CsvCheck {
  if (bytes.byteLength > MAX_CSV_BYTES) return { ok: false, error: "tooLarge" };
  const records = parseCsv(decodeCsv(bytes));
  if (records.length === 0) return { ok: false, error: "empty" };
  const [header, ...body] = records;
  // own keys only: a header such as "constructor" or "__proto__" is an unknown column, not Object's
  const alias = (name: string) => (Object.hasOwn(HEADER_ALIASES, name) ? HEADER_ALIASES[name] : undefined);
  const columns = header!.fields.map(
    (h) =>
      alias(
        h
          .trim()
          .replace(/^\uFEFF/, "")
          .toLowerCase(),
      ) ?? alias(h.trim()),
  );
  if (
    !columns.includes("name") ||
    !columns.includes("grade") ||
    !columns.includes("className") ||
    !columns.includes("number")
  ) {
    return { ok: false, error: "noHeader" };
  }
  if (body.length === 0) return { ok: false, error: "empty" };
  if (body.length > MAX_CSV_ROWS) return { ok: false, error: "tooManyRows" };

  const seenEmails = new Map<string, number>();
  const seenSeats = new Map<string, number>();
  const rows = body.map(({ line, fields }): CsvRow => {
    const raw: Partial<Record<Column, string>> = {};
    columns.forEach((column, i) => {
      if (column) raw[column] = (fields[i] ?? "").trim();
    });
    const shown = {
      name: raw.name ?? "",
      grade: raw.grade ?? "",
      className: raw.className ?? "",
      number: raw.number ?? "",
      email: raw.email ?? "",
    };
    const parsed = studentInput.safeParse({
      ...raw,
      group: raw.group?.toUpperCase() ?? "",
      displayLanguage: languageCell(raw.displayLanguage),
    });
    const errors = new Set<CsvRowError>();
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (issue.message === FORMULA_ISSUE) errors.add("formulaName");
        else if (field === "name") errors.add("missingName");
        else if (field === "grade" || field === "className" || field === "number") errors.add("badClass");
        else if (field === "email") errors.add("badEmail");
        else if (field === "nameKana") errors.add("badKana");
        else if (field === "displayLanguage") errors.add("badLanguage");
        else errors.add("badGroup");
      }
      return { line, input: null, shown, errors: [...errors] };
    }
    const input = parsed.data;
    if (input.email) {
      if (seenEmails.has(input.email)) errors.add("duplicateEmail");
      else if (taken.emails.has(input.email)) errors.add("emailInUse");
      seenEmails.set(input.email, line);
    }
    const seat = seatKey(input.grade, input.className, input.number);
    if (seenSeats.has(seat) || taken.seats.has(seat)) errors.add("duplicateSeat");
    seenSeats.set(seat, line);
    return { line, input, shown, errors: [...errors] };
  });
  return { ok: true, rows };
}

export { seatKey };
