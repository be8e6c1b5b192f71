"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { createBlankActivityAction } from "@/features/activities/server/actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { activityErrorKey } from "./error-message";
import { defaultContent } from "./scene-content";

/** "Start from nothing" beside the template library: a title, then the edit page of the new activity (a manager names the school). */
export function BlankActivity({ schoolId }: { schoolId?: string }) {
  const t = useTranslations("SceneEditor");
  const td = useTranslations("SceneEditor.defaults");
  const ta = useTranslations("Activities");
  const router = useRouter();
  const id = useId();
  const [title, setTitle] = useState("");
  const [empty, setEmpty] = useState(false);
  const { pending, run } = useActionRunner();
  const create = () => {
    if (!title.trim()) return setEmpty(true);
    run(
      () =>
        createBlankActivityAction({
          ...(schoolId ? { schoolId } : {}),
          title,
          scene: { type: "info", content: defaultContent("info", td) },
        }),
      {
        failure: (code) => ta(activityErrorKey("copy", code)),
        onOk: (data) =>
          router.push(
            schoolId
              ? `/dashboard/manager/activities/edit/${schoolId}/${data.id}`
              : `/dashboard/teacher/activities/edit/${data.id}`,
          ),
      },
    );
  };
  return (
    <section className="card stack" aria-labelledby={`${id}-heading`} data-testid="blank-activity">
      <h3 id={`${id}-heading`}>
        <RichTextClient text={t("blankHeading")} />
      </h3>
      <p className="muted">
        <RichTextClient text={t("blankLead")} />
      </p>
      <form
        className="row"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <BlankTitleField
          id={id}
          title={title}
          empty={empty}
          onTitle={(next) => {
            setTitle(next);
            setEmpty(false);
          }}
        />
        <button
          type="submit"
          className="button button-primary"
          disabled={pending}
          aria-busy={pending}
          data-testid="create-blank"
        >
          <RichTextClient text={pending ? t("blankCreating") : t("blankCreate")} />
        </button>
      </form>
    </section>
  );
}

/** The new activity's title, required. */
function BlankTitleField({
  id,
  title,
  empty,
  onTitle,
}: {
  id: string;
  title: string;
  empty: boolean;
  onTitle: (title: string) => void;
}) {
  const t = useTranslations("SceneEditor");
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <RichTextClient text={t("blankName")} />
      </label>
      <input
        id={id}
        value={title}
        maxLength={200}
        required
        aria-invalid={empty || undefined}
        aria-describedby={empty ? `${id}-error` : undefined}
        data-testid="blank-title"
        onChange={(e) => onTitle(e.target.value)}
      />
      {empty ? (
        <p className="field-error" id={`${id}-error`} data-testid="field-error">
          <RichTextClient text={t("errors.required")} />
        </p>
      ) : null}
    </div>
  );
}
