"use client";
import type { ReactNode } from "react";
import type { ActionResult, ErrorCode } from "@/platform/errors";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** The dialog that sets or replaces the setting: its fields, the action and what it says. */
interface EditDialog {
  testId: string;
  label: string;
  title: string;
  action: (fields: Record<string, string>) => Promise<ActionResult<unknown>>;
  success: string;
  failure: (code: ErrorCode) => string;
  fields: ReactNode;
}

/** The dialog that removes it, asked only while it is set. */
interface RemoveDialog {
  testId: string;
  label: string;
  confirm: string;
  action: () => Promise<ActionResult<unknown>>;
  success: string;
  failure: string;
}

/**
 * One of the academy's links to an outside service on the schools screen (its 学習eポータル over LTI, its LRS): a card
 * with its heading, a dialog that sets or replaces it, one that removes it while set, then what is set (`children`).
 */
export function AcademySettingCard({
  id,
  testId,
  title,
  edit,
  remove,
  children,
}: {
  id: string;
  testId: string;
  title: string;
  edit: EditDialog;
  remove: RemoveDialog | null;
  children: ReactNode;
}) {
  return (
    <section className="card stack" aria-labelledby={id} data-testid={testId}>
      <div className="row">
        <h2 id={id}>
          <RichTextClient text={title} />
        </h2>
        <span className="top-bar-spacer" />
        <FormDialog
          label={edit.label}
          title={edit.title}
          testId={edit.testId}
          submit={edit.label}
          action={edit.action}
          success={edit.success}
          failure={(r) => edit.failure(r.code)}
        >
          {edit.fields}
        </FormDialog>
        {remove ? (
          <FormDialog
            label={remove.label}
            title={remove.label}
            testId={remove.testId}
            submit={remove.label}
            action={remove.action}
            success={remove.success}
            failure={() => remove.failure}
          >
            <p>
              <RichTextClient text={remove.confirm} />
            </p>
          </FormDialog>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/** A text field of such a dialog: no autocomplete or spelling help (URLs, ids, keys). */
export function SettingField({
  name,
  label,
  type = "text",
  value,
  maxLength = 500,
}: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  maxLength?: number;
}) {
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={label} />
      </span>
      <input name={name} type={type} maxLength={maxLength} defaultValue={value} autoComplete="off" spellCheck={false} />
    </label>
  );
}
