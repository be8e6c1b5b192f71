/**
 * docs/requirements.md §3 timestamps. The legacy store kept them as strings of epoch
 * milliseconds; on read they are normalised from numbers, Dates, ISO strings,
 * numeric strings or database timestamps ({seconds,nanoseconds} or
 * {_seconds,_nanoseconds}, or anything with toDate()/toMillis()); a missing or
 * unreadable value becomes the current time. On write createdAt and updatedAt
 * default to now.
 */
export type TimestampInput =
  | number
  | string
  | Date
  | { seconds: number; nanoseconds?: number }
  | { _seconds: number; _nanoseconds?: number }
  | { toMillis(): number }
  | { toDate(): Date }
  | null
  | undefined;

function millisOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string") {
    const s = value.trim();
    if (s === "") return undefined;
    if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
    const parsed = Date.parse(s);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  if (typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.toMillis === "function") return millisOf((o.toMillis as () => unknown)());
    if (typeof o.toDate === "function") return millisOf((o.toDate as () => unknown)());
    const seconds = o.seconds ?? o._seconds;
    const nanos = o.nanoseconds ?? o._nanoseconds ?? 0;
    if (typeof seconds === "number" && typeof nanos === "number") {
      return seconds * 1000 + Math.floor(nanos / 1e6);
    }
  }
  return undefined;
}

/** A stored timestamp as a Date, or undefined when it is missing or unreadable (for importers that must tell the two apart). */
export function parseTimestamp(value: unknown): Date | undefined {
  const ms = millisOf(value);
  if (ms === undefined) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Normalises any stored timestamp form to a Date; missing or invalid → now. */
export function readTimestamp(value: unknown, now: () => Date = () => new Date()): Date {
  return parseTimestamp(value) ?? now();
}

/** The legacy storage form: a string of epoch milliseconds. */
export function toEpochMillisString(date: Date): string {
  return String(date.getTime());
}

/** Fills createdAt/updatedAt with now when absent (normalising present values). */
export function withWriteTimestamps<T extends object>(
  record: T & { createdAt?: unknown; updatedAt?: unknown },
  now: () => Date = () => new Date(),
): Omit<T, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt: Date } {
  const at = now();
  return {
    ...record,
    createdAt:
      record.createdAt === undefined || record.createdAt === null ? at : readTimestamp(record.createdAt, () => at),
    updatedAt:
      record.updatedAt === undefined || record.updatedAt === null ? at : readTimestamp(record.updatedAt, () => at),
  };
}

/** The last millisecond of a calendar day (YYYY-MM-DD) in Japan (UTC+9, no daylight saving). */
export function endOfDayJst(day: string): Date {
  return new Date(Date.parse(`${day}T23:59:59.999+09:00`));
}

/** The calendar day (YYYY-MM-DD) of an instant in Japan. */
export function dayInJst(at: Date): string {
  return new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
}
