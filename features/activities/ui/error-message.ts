import type { ErrorCode } from "@/platform/errors";
import { failureKey } from "@/platform/ui/failure-key";

export type ActivityOp = "copy" | "archive" | "restore" | "delete" | "mode" | "order";

/** The Activities.errors key for a failed operation (docs/requirements.md §8 messages). */
export const activityErrorKey = (op: ActivityOp, code: ErrorCode) => failureKey(code, `errors.${op}` as const);
