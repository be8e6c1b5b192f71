import type { ErrorCode } from "@/platform/errors";
import { failureKey } from "@/platform/ui/failure-key";

/** The Library.errors key for a failed library action (no library action answers CONFLICT: it has no message of its own). */
export const libraryErrorKey = (code: ErrorCode) =>
  failureKey(code, "errors.failed", ["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "VALIDATION"]);
