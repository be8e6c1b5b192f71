"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useActionState, useEffect } from "react";
import { copyTemplateFromForm } from "@/features/activities/server/actions";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { activityErrorKey } from "./error-message";

export interface TemplateCard {
  id: string;
  title: string;
  description: string;
  actorType: "student" | "teacher";
  sceneCount: number;
  /** The scenes' prompts, rendered on the server (list items). */
  preview: ReactNode[];
}

function TemplateItem({ tpl, schoolId }: { tpl: TemplateCard; schoolId?: string }) {
  const t = useTranslations("Activities");
  const notify = useNotify();
  const [result, action, pending] = useActionState(copyTemplateFromForm, null);
  useEffect(() => {
    if (!result) return;
    if (result.ok) notify({ message: t("copiedDone"), kind: "success" });
    else notify({ message: t(activityErrorKey("copy", result.code)), kind: "error" });
  }, [result, notify, t]);
  return (
    <li className="card template-card" data-template-id={tpl.id}>
      <h3>
        <RichTextClient text={tpl.title} />
      </h3>
      <p className="muted">
        <RichTextClient text={tpl.description} />
      </p>
      <p className="muted small">
        <RichTextClient text={t("sceneCount", { count: tpl.sceneCount })} /> ・{" "}
        <RichTextClient text={t(tpl.actorType === "student" ? "actorStudent" : "actorTeacher")} />
      </p>
      <details className="template-preview" data-testid="template-preview">
        <summary>
          <RichTextClient text={t("preview")} />
        </summary>
        <ol>{tpl.preview}</ol>
      </details>
      <form className="stack" action={action}>
        <input type="hidden" name="templateId" value={tpl.id} />
        {schoolId ? <input type="hidden" name="schoolId" value={schoolId} /> : null}
        <label className="field">
          <span className="field-label small">
            <RichTextClient text={t("titleOptional")} />
          </span>
          <input name="title" maxLength={200} />
        </label>
        <button
          type="submit"
          className="button button-primary"
          disabled={pending}
          aria-busy={pending}
          data-testid="copy-template"
        >
          <RichTextClient text={pending ? t("copying") : t("copy")} />
        </button>
      </form>
    </li>
  );
}

/** "Add from template": each template with its description and scene count; an optional title. */
export function TemplateLibrary({ templates, schoolId }: { templates: TemplateCard[]; schoolId?: string }) {
  return (
    <ul className="template-grid" data-testid="template-library">
      {templates.map((tpl) => (
        <TemplateItem key={tpl.id} tpl={tpl} schoolId={schoolId} />
      ))}
    </ul>
  );
}
