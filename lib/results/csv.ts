/** CSV for Excel in Japan: UTF-8 with a BOM, CRLF line ends, quoted when needed. */
export const CSV_BOM = "\uFEFF";

/**
 * One cell: quoted when it holds a comma, quote or line break; a text that
 * Excel would run as a formula (= + - @ at the start) gets a leading
 * apostrophe (CSV injection).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
