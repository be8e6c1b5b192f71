import type { ErrorCode } from "@/lib/errors";

/** The Library.errors key for a failed library action. */
export function libraryErrorKey(code: ErrorCode) {
  switch (code) {
    case "UNAUTHENTICATED":
      return "errors.notAuthenticated" as const;
    case "FORBIDDEN":
      return "errors.forbidden" as const;
    case "NOT_FOUND":
      return "errors.notFound" as const;
    case "VALIDATION":
      return "errors.validation" as const;
    default:
      return "errors.failed" as const;
  }
}
