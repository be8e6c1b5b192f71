"use client";
import { RichTextClient } from "./rich-text-client";

/** A small button for a row or toolbar action (44 px touch target), disabled while an action runs. */
export function ActionButton({
  label,
  testId,
  onClick,
  disabled,
  danger,
}: {
  label: string;
  testId: string;
  onClick: () => unknown;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      className={danger ? "button button-small button-danger" : "button button-small"}
      disabled={disabled}
      onClick={() => void onClick()}
      data-testid={testId}
    >
      <RichTextClient text={label} />
    </button>
  );
}
