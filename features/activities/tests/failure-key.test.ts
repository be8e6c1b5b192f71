import { describe, expect, it } from "vitest";
import { activityErrorKey } from "@/features/activities/ui/error-message";
import { libraryErrorKey } from "@/features/activities/ui/library-error-message";
import { ERROR_CODES } from "@/platform/errors";
import { loadMessages } from "@/platform/i18n/messages";

describe("failure messages: one map of codes to keys", () => {
  it("an activity operation's failure: the code's own message, else the operation's", () => {
    expect(Object.fromEntries(ERROR_CODES.map((code) => [code, activityErrorKey("archive", code)]))).toEqual({
      UNAUTHENTICATED: "errors.notAuthenticated",
      FORBIDDEN: "errors.forbidden",
      NOT_FOUND: "errors.notFound",
      CONFLICT: "errors.conflict",
      VALIDATION: "errors.validation",
      RATE_LIMITED: "errors.archive",
      INTERNAL: "errors.archive",
    });
  });

  it("a library action's failure: the code's own message, else 'failed' (the library names no conflict)", () => {
    expect(Object.fromEntries(ERROR_CODES.map((code) => [code, libraryErrorKey(code)]))).toEqual({
      UNAUTHENTICATED: "errors.notAuthenticated",
      FORBIDDEN: "errors.forbidden",
      NOT_FOUND: "errors.notFound",
      CONFLICT: "errors.failed",
      VALIDATION: "errors.validation",
      RATE_LIMITED: "errors.failed",
      INTERNAL: "errors.failed",
    });
  });

  it("every key it gives is a message of its namespace", () => {
    const messages = loadMessages("ja");
    const has = (namespace: Record<string, unknown>, key: string) =>
      typeof (namespace.errors as Record<string, unknown>)[key.replace(/^errors\./, "")] === "string";
    for (const code of ERROR_CODES) {
      expect(has(messages.Activities, activityErrorKey("copy", code)), code).toBe(true);
      expect(has(messages.Library, libraryErrorKey(code)), code).toBe(true);
    }
  });
});
