import { z } from "zod";
import { searchText } from "@/platform/db/query-text";

/**
 * The sign-in log is the audit log (platform/audit): an entry's action names its method and result
 * (`signin.<method>.<success|failure|throttled>`, the second factor's `signin.<totp|recovery|passkey>.…` as "factor",
 * `password.reset.<requested|done>`, `signout`); every other action is
 * a change to accounts, sign-in codes, schools or settings ("change").
 */
export const SIGNIN_METHODS = [
  "password",
  "google",
  "entra",
  "oidc",
  "lti",
  "code",
  "factor",
  "reset",
  "signout",
  "change",
] as const;
export type SigninMethod = (typeof SIGNIN_METHODS)[number];
export const SIGNIN_RESULTS = ["success", "failure", "throttled"] as const;
export type SigninOutcome = (typeof SIGNIN_RESULTS)[number];

/** Rows on one page of the log. */
export const SIGNIN_LOG_PAGE_SIZE = 50;
/** The most rows one CSV export holds; past it the export asks for a narrower filter (413). */
export const SIGNIN_LOG_EXPORT_MAX = 50_000;

/** The second step of a staff sign-in: an authenticator app's code, a recovery code or a passkey (platform/auth/second-factor.ts). */
export const FACTOR_STEPS = ["totp", "recovery", "passkey"] as const;

/** The method and result an entry's action names. */
export function describeAction(action: string): { method: SigninMethod; result: SigninOutcome } {
  const [family, method, result] = action.split(".");
  if (
    family === "signin" &&
    (method === "password" ||
      method === "google" ||
      method === "entra" ||
      method === "oidc" ||
      method === "lti" ||
      method === "code")
  ) {
    return { method, result: result === "failure" || result === "throttled" ? result : "success" };
  }
  if (family === "signin" && (FACTOR_STEPS as readonly string[]).includes(method ?? "")) {
    return { method: "factor", result: result === "failure" || result === "throttled" ? result : "success" };
  }
  if (family === "password" && method === "reset") return { method: "reset", result: "success" };
  if (family === "signout") return { method: "signout", result: "success" };
  return { method: "change", result: "success" };
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00+09:00`)));

/** The log's filters (from the URL): person or e-mail text, method, result, a date range in school time (JST), page. */
export const signinLogQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
  q: searchText(254).optional().catch(undefined),
  method: z.enum(SIGNIN_METHODS).optional().catch(undefined),
  result: z.enum(SIGNIN_RESULTS).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
});
export type SigninLogQuery = z.infer<typeof signinLogQuery>;

/** The query from URL search parameters (the first of repeated ones). */
export function parseSigninLogQuery(raw: Record<string, string | string[] | undefined> | URLSearchParams) {
  const entries = raw instanceof URLSearchParams ? [...raw.entries()] : Object.entries(raw);
  return signinLogQuery.parse(Object.fromEntries(entries.map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
}

/** The URL search of a query (page 1 and empty filters left out), e.g. for the pager and the export link. */
export function signinLogSearch(q: Partial<SigninLogQuery>): string {
  const params = new URLSearchParams();
  if (q.page && q.page > 1) params.set("page", String(q.page));
  for (const key of ["q", "method", "result", "from", "to"] as const) {
    const value = q[key];
    if (value) params.set(key, value);
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}
