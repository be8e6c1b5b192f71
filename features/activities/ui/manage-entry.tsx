"use client";
import { useTranslations } from "next-intl";
import { useActionState, useEffect } from "react";
import type { ActionResult } from "@/platform/errors";
import { setEntryTagsFromForm, withdrawEntryAction } from "@/features/activities/server/library-actions";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { libraryErrorKey } from "./library-error-message";
import { TagFields } from "./tag-fields";

type Result = ActionResult<null>;
const submit = (prev: Result | null, form: FormData): Promise<Result> =>
  setEntryTagsFromForm(prev, form).catch((): Result => ({ ok: false, code: "INTERNAL" }));

/** A manager's controls on an entry: change its tags; withdraw it after a confirmation. */
export function ManageEntry({
  entryId,
  tags,
}: {
  entryId: string;
  tags: { subject: string | null; grade: string | null; unit: string };
}) {
  const t = useTranslations("Library");
  const notify = useNotify();
  const { confirm, dialog } = useConfirm();
  const { pending, run } = useActionRunner();
  const [result, action, saving] = useActionState(submit, null);
  useEffect(() => {
    if (!result) return;
    if (result.ok) notify({ message: t("tagsSaved"), kind: "success" });
    else notify({ message: t(libraryErrorKey(result.code)), kind: "error" });
  }, [result, notify, t]);
  const withdraw = async () => {
    if (!(await confirm({ title: t("withdrawTitle"), body: t("withdrawBody"), confirm: t("withdraw"), danger: true })))
      return;
    run(() => withdrawEntryAction({ entryId }), {
      success: t("withdrawn"),
      failure: (code) => t(libraryErrorKey(code)),
    });
  };
  return (
    <details className="template-preview" data-testid="library-manage">
      <summary>
        <RichTextClient text={t("manage")} />
      </summary>
      <form className="stack" action={action}>
        <input type="hidden" name="entryId" value={entryId} />
        <TagFields idPrefix="library-tags" initial={tags} />
        <button type="submit" className="button" disabled={saving} aria-busy={saving} data-testid="library-save-tags">
          <RichTextClient text={saving ? t("savingTags") : t("saveTags")} />
        </button>
      </form>
      <button
        type="button"
        className="button button-danger"
        disabled={pending}
        aria-busy={pending}
        onClick={withdraw}
        data-testid="library-withdraw"
      >
        <RichTextClient text={t("withdraw")} />
      </button>
      {dialog}
    </details>
  );
}
