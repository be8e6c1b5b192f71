/** CSV for Excel in Japan: UTF-8 with a BOM, CRLF line ends, quoted when needed. */
export const CSV_BOM = "\uFEFF";

/**
 * One cell: quoted when it holds a comma, quote or line break; a text that
 * Excel would run as a formula (= + - @ at the start) gets a leading
 * apostrophe (CSV injection).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    typeof value === "string"
      ? value
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : JSON.stringify(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** How many whole records `text` holds (line ends outside quotes; a quote inside a cell is doubled, so it toggles twice). */
export function csvRecordCount(text: string): number {
  let quoted = false;
  let records = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) records++;
  }
  return records;
}

const TOKYO = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Asia/Tokyo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** A time as Excel and people in Japan read it: school time with its offset, e.g. 2026-11-24 09:05:00+09:00. */
export function tokyoTimestamp(date: Date): string {
  const p = Object.fromEntries(TOKYO.formatToParts(date).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}+09:00`;
}
