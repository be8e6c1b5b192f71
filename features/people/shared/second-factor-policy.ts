import { z } from "zod";

/**
 * An academy's second-factor policy as its manager sets it on the schools screen: whether teachers and managers
 * must sign in with a second factor, and the last day (school time, JST) of the grace period during which those
 * without one are only asked to set one up (empty: none, they must at their next sign-in).
 */
export const secondFactorPolicyInput = z
  .object({
    require: z.enum(["on", "off"]).transform((v) => v === "on"),
    graceUntil: z.union([z.literal(""), z.iso.date()]),
  })
  .transform(({ require, graceUntil }) => ({
    require,
    // the grace ends when the given day does in Japan
    graceUntil: require && graceUntil ? new Date(Date.parse(`${graceUntil}T00:00:00+09:00`) + 86_400_000) : null,
  }));

/** The grace end as the form's date field shows it: the day (JST) it is the end of. */
export function graceDayOf(graceUntil: Date | null): string {
  if (!graceUntil) return "";
  return new Date(graceUntil.getTime() + 9 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
}
