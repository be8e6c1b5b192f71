"use client";
import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef } from "react";
import type { ActionResult } from "@/platform/errors";
import { copyLibraryEntryFromForm } from "@/features/activities/server/library-actions";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { libraryErrorKey } from "./library-error-message";

type Result = ActionResult<{ id: string; title: string }>;
/** A request that never got an answer (a school network dropped it) is "try again", not a broken page. */
const submit = (prev: Result | null, form: FormData): Promise<Result> =>
  copyLibraryEntryFromForm(prev, form).catch((): Result => ({ ok: false, code: "INTERNAL" }));

/** "Copy to my school" on a library entry; a manager chooses one of the academy's schools. */
export function CopyEntry({ entryId, schools }: { entryId: string; schools?: { id: string; name: string }[] }) {
  const t = useTranslations("Library");
  const notify = useNotify();
  const form = useRef<HTMLFormElement>(null);
  const [result, action, pending] = useActionState(submit, null);
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      notify({ message: t("copied", { title: result.data.title }), kind: "success" });
      form.current?.reset();
    } else notify({ message: t(libraryErrorKey(result.code)), kind: "error" });
  }, [result, notify, t]);
  return (
    <form ref={form} className="stack" action={action} data-testid="library-copy-form">
      <input type="hidden" name="entryId" value={entryId} />
      {schools ? (
        <label className="field">
          <span className="field-label small">
            <RichTextClient text={t("copyTo")} />
          </span>
          <select name="schoolId" required data-testid="library-copy-school">
            {schools.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="field">
        <span className="field-label small">
          <RichTextClient text={t("copyTitleOptional")} />
        </span>
        <input name="title" maxLength={200} />
      </label>
      <button
        type="submit"
        className="button button-primary"
        disabled={pending}
        aria-busy={pending}
        data-testid="library-copy"
      >
        <RichTextClient text={pending ? t("copying") : t("copy")} />
      </button>
    </form>
  );
}
