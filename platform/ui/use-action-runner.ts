"use client";
import { useCallback, useTransition } from "react";
import type { ActionResult, ErrorCode } from "@/platform/errors";
import { useNotify } from "./notifications";

type Message<A> = string | ((arg: A) => string);

/**
 * Runs a server action in a transition and reports it in a notification: the
 * success message (if any) when it worked, the failure message for its code
 * otherwise. A thrown error (network, server restart) counts as INTERNAL.
 */
export function useActionRunner() {
  const notify = useNotify();
  const [pending, startTransition] = useTransition();
  const run = useCallback(
    <T>(
      action: () => Promise<ActionResult<T>>,
      options: { success?: Message<T>; failure: Message<ErrorCode>; onOk?: (data: T) => void; onDone?: () => void },
    ) => {
      startTransition(async () => {
        const result = await action().catch((): ActionResult<T> => ({ ok: false, code: "INTERNAL" }));
        options.onDone?.();
        if (result.ok) {
          options.onOk?.(result.data);
          const { success } = options;
          if (success)
            notify({ message: typeof success === "function" ? success(result.data) : success, kind: "success" });
        } else {
          const { failure } = options;
          notify({ message: typeof failure === "function" ? failure(result.code) : failure, kind: "error" });
        }
      });
    },
    [notify],
  );
  return { pending, run };
}
