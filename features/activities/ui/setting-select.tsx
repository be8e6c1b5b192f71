"use client";
import { useId, useState } from "react";
import type { ActionResult, ErrorCode } from "@/platform/errors";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";

/**
 * One setting of an activity as a select that saves on change (the feedback timing, who
 * answers): the choice shows at once, goes back when the save fails, and a notification
 * says which.
 */
export function SettingSelect<V extends string>({
  label,
  value: initial,
  options,
  save,
  saved,
  failed,
  testId,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  save: (value: V) => Promise<ActionResult<null>>;
  saved: string;
  failed: (code: ErrorCode) => string;
  testId: string;
}) {
  const id = useId();
  const [value, setValue] = useState(initial);
  const { pending, run } = useActionRunner();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <RichTextClient text={label} />
      </label>
      <select
        id={id}
        value={value}
        disabled={pending}
        aria-busy={pending}
        data-testid={testId}
        onChange={(e) => {
          const next = e.target.value as V;
          const before = value;
          setValue(next);
          run(() => save(next), {
            success: saved,
            failure: (code) => {
              setValue(before);
              return failed(code);
            },
          });
        }}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
