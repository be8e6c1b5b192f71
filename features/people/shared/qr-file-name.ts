/** Characters no file name may carry on Windows, macOS or Linux, and control characters. */
const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

/**
 * The file name of a student's QR PNG: class, two-digit number and name without
 * spaces, e.g. `1年1組03_山田花子.png`; `classLabel` is the class as the
 * teacher's screen shows it (plain text). Without a class, the name alone.
 */
export function qrFileName(student: { classLabel: string | null; number: number | null; name: string }): string {
  const clean = (s: string) => s.replace(/\s+/g, "").replace(UNSAFE, "_");
  const number = student.number === null ? "" : String(student.number).padStart(2, "0");
  const place = clean(`${student.classLabel ?? ""}${number}`);
  const name = clean(student.name) || "student";
  return `${`${place ? `${place}_` : ""}${name}`.slice(0, 100)}.png`;
}
