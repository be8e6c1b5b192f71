import type { ErrorCode } from "@/lib/errors";

export type ActivityOp = "copy" | "archive" | "restore" | "delete" | "mode" | "order";

/** The Activities.errors key for a failed operation (docs/requirements.md §8 messages). */
export function activityErrorKey(op: ActivityOp, code: ErrorCode) {
  switch (code) {
    case "UNAUTHENTICATED":
      return "errors.notAuthenticated" as const;
    case "FORBIDDEN":
      return "errors.noSchool" as const;
    case "NOT_FOUND":
      return "errors.notFound" as const;
    case "CONFLICT":
      return "errors.conflict" as const;
    case "VALIDATION":
      return "errors.validation" as const;
    default:
      return `errors.${op}` as const;
  }
}
