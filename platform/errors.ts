/** The closed set of failure codes every action and route handler returns (docs/architecture.md). */
export const ERROR_CODES = [
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "VALIDATION",
  "RATE_LIMITED",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type ActionResult<T = null> =
  { ok: true; data: T } | { ok: false; code: ErrorCode; fieldErrors?: Record<string, string[]> };

export const ok = <T>(data: T): ActionResult<T> => ({ ok: true, data });
export const fail = (code: ErrorCode, fieldErrors?: Record<string, string[]>): ActionResult<never> => ({
  ok: false,
  code,
  ...(fieldErrors ? { fieldErrors } : {}),
});

/** A failed input's messages by field (`a.b`; `_` for the whole input), as every action answers VALIDATION. */
export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}
