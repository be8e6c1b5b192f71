"use client";
import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef, useState } from "react";
import { importActivityFromForm } from "@/features/activities/server/actions";
import { ACTIVITY_FILE_MAX_BYTES, ACTIVITY_FILE_VERSION } from "@/features/activities/shared/file-limits";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { activityErrorKey } from "./error-message";

type Result = Awaited<ReturnType<typeof importActivityFromForm>>;
/** A request that never got an answer (a school network dropped it) is "try again", not a broken page. */
const submit = (prev: Result | null, form: FormData): Promise<Result> =>
  importActivityFromForm(prev, form).catch((): Result => ({ ok: false, code: "INTERNAL" }));

const PROBLEMS = [
  "empty",
  "tooLarge",
  "binary",
  "notJson",
  "formatMissing",
  "formatUnknown",
  "versionUnknown",
  "sceneType",
  "sceneContent",
  "invalid",
  "invalidCharacters",
  "busy",
  "imageQuota",
] as const;
type Problem = (typeof PROBLEMS)[number];

/**
 * "Import from a file" under the activity list (docs/product-design.md
 * "Sharing activities"): a refused file shows why, with what was found, and
 * nothing is created; an imported one is a new activity of this school.
 */
export function ImportActivity({ schoolId }: { schoolId?: string }) {
  const t = useTranslations("ActivityTransfer");
  const notify = useNotify();
  const form = useRef<HTMLFormElement>(null);
  const [result, action, pending] = useActionState(submit, null);
  const [tooLarge, setTooLarge] = useState(false);
  const kb = ACTIVITY_FILE_MAX_BYTES / 1024;

  useEffect(() => {
    if (!result?.ok) return;
    notify({ message: t("imported", { title: result.data.title }), kind: "success" });
    form.current?.reset();
  }, [result, notify, t]);

  const message = useImportMessage(result, tooLarge);

  return (
    <section className="stack" aria-labelledby="import-activity-title" data-testid="import-activity">
      <h2 id="import-activity-title">
        <RichTextClient text={t("title")} />
      </h2>
      <p className="muted">
        <RichTextClient text={t("lead", { kb })} />
      </p>
      <form
        ref={form}
        className="row"
        action={action}
        onSubmit={(e) => {
          const file = (e.currentTarget.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
          const over = Boolean(file && file.size > ACTIVITY_FILE_MAX_BYTES);
          setTooLarge(over);
          if (over) e.preventDefault();
        }}
      >
        {schoolId ? <input type="hidden" name="schoolId" value={schoolId} /> : null}
        <label className="field">
          <span className="field-label">
            <RichTextClient text={t("file")} />
          </span>
          <input
            type="file"
            name="file"
            accept=".json,application/json"
            required
            data-testid="activity-file"
            onChange={() => setTooLarge(false)}
          />
        </label>
        <button
          type="submit"
          className="button button-primary"
          disabled={pending}
          aria-busy={pending}
          data-testid="import-activity-submit"
        >
          <RichTextClient text={pending ? t("importing") : t("submit")} />
        </button>
      </form>
      {message && !pending ? (
        <p
          className="alert alert-error"
          role="alert"
          data-testid="import-activity-error"
          data-code={tooLarge ? "tooLarge" : result && !result.ok ? (result.fieldErrors?.file?.[0] ?? result.code) : ""}
        >
          <span>
            <RichTextClient text={message} />
          </span>
        </p>
      ) : null}
    </section>
  );
}

/** The message to show: a file over the size limit, or why the import was refused (null: none). */
function useImportMessage(result: Result | null, tooLarge: boolean): string | null {
  const t = useTranslations("ActivityTransfer");
  const ta = useTranslations("Activities");
  const kb = ACTIVITY_FILE_MAX_BYTES / 1024;
  let message: string | null = tooLarge ? t("problems.tooLarge", { kb }) : null;
  if (!message && result && !result.ok) {
    const fe = result.fieldErrors ?? {};
    const code = fe.file?.[0];
    const known = PROBLEMS.includes(code as Problem);
    message = known
      ? t(`problems.${code as Problem}`, {
          kb,
          supported: ACTIVITY_FILE_VERSION,
          found: fe.found?.[0] ?? "",
          scene: fe.scene?.[0] ?? "",
          field: fe.field?.[0] ?? "",
        })
      : result.code === "VALIDATION" || result.code === "INTERNAL"
        ? t("problems.failed")
        : ta(activityErrorKey("copy", result.code));
  }
  return message;
}
