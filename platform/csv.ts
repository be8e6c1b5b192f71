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
