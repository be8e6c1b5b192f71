"use client";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** An on/off control of the live console (aria-pressed), its label saying what pressing it does. */
export function SessionToggle({
  testId,
  on,
  label,
  pending,
  onClick,
}: {
  testId: string;
  on: boolean;
  label: string;
  pending: boolean;
  onClick: () => unknown;
}) {
  return (
    <button
      type="button"
      className="button button-small"
      aria-pressed={on}
      disabled={pending}
      data-testid={testId}
      onClick={onClick}
    >
      <RichTextClient text={label} />
    </button>
  );
}
