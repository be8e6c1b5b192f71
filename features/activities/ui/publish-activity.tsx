"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useActionState, useEffect } from "react";
import type { ActionResult } from "@/platform/errors";
import { publishActivityFromForm } from "@/features/activities/server/library-actions";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { libraryErrorKey } from "./library-error-message";
import { TagFields } from "./tag-fields";

type Result = ActionResult<{ id: string; republished: boolean }>;
const submit = (prev: Result | null, form: FormData): Promise<Result> =>
  publishActivityFromForm(prev, form).catch((): Result => ({ ok: false, code: "INTERNAL" }));

/**
 * "Publish to the library" under a manager's school activity list
 * (docs/product-design.md "The academy library"): one of the school's
 * activities with its tags; an activity already published is marked, and
 * publishing it again replaces its snapshot.
 */
export function PublishActivity({
  schoolId,
  activities,
}: {
  schoolId: string;
  activities: { id: string; title: string; published: boolean }[];
}) {
  const t = useTranslations("Library");
  const plain = usePlainText();
  const notify = useNotify();
  const [result, action, pending] = useActionState(submit, null);
  useEffect(() => {
    if (!result) return;
    if (result.ok)
      notify({ message: t(result.data.republished ? "republishedDone" : "publishedDone"), kind: "success" });
    else notify({ message: t(libraryErrorKey(result.code)), kind: "error" });
  }, [result, notify, t]);
  return (
    <section className="stack" aria-labelledby="publish-title" data-testid="publish-activity">
      <h2 id="publish-title">
        <RichTextClient text={t("publishTitle")} />
      </h2>
      <p className="muted">
        <RichTextClient text={t("publishLead")} />
      </p>
      <form className="stack" action={action}>
        <input type="hidden" name="schoolId" value={schoolId} />
        <label className="field">
          <span className="field-label">
            <RichTextClient text={t("activity")} />
          </span>
          <select name="activityId" required defaultValue="" data-testid="publish-activity-select">
            <option value="" disabled>
              {plain(t("chooseActivity"))}
            </option>
            {activities.map((a) => (
              <option key={a.id} value={a.id}>
                {plain(a.title)}
                {a.published ? plain(t("publishedMark")) : ""}
              </option>
            ))}
          </select>
        </label>
        <TagFields idPrefix="publish" />
        <div className="row wrap">
          <button
            type="submit"
            className="button button-primary"
            disabled={pending}
            aria-busy={pending}
            data-testid="publish-submit"
          >
            <RichTextClient text={pending ? t("publishing") : t("publish")} />
          </button>
          <Link href="/dashboard/manager/library">
            <RichTextClient text={t("openLibrary")} />
          </Link>
        </div>
      </form>
    </section>
  );
}
