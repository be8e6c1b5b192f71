import type { ErrorCode } from "@/platform/errors";

/** The message keys of failure codes, the same in every namespace whose `errors` name them (Activities, Library). */
const FAILURE_KEYS = {
  UNAUTHENTICATED: "errors.notAuthenticated",
  FORBIDDEN: "errors.forbidden",
  NOT_FOUND: "errors.notFound",
  CONFLICT: "errors.conflict",
  VALIDATION: "errors.validation",
} as const satisfies Partial<Record<ErrorCode, `errors.${string}`>>;
type NamedCode = keyof typeof FAILURE_KEYS;

/**
 * The message key of a failed action's code: its own message where the namespace has one (`named`:
 * the codes it has messages for, all of FAILURE_KEYS unless given), else `fallback`, the namespace's
 * message for what failed.
 */
export function failureKey<F extends string, C extends NamedCode = NamedCode>(
  code: ErrorCode,
  fallback: F,
  named?: readonly C[],
): (typeof FAILURE_KEYS)[C] | F {
  const has = code in FAILURE_KEYS && (!named || (named as readonly ErrorCode[]).includes(code));
  return has ? FAILURE_KEYS[code as C] : fallback;
}
