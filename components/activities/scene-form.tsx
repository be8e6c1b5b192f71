"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { saveSceneAction } from "@/lib/activities/actions";
import { editedSceneSchema } from "@/lib/activities/scene-schema";
import type { ErrorCode } from "@/lib/errors";
import type { SceneType } from "@/lib/scenes/schema";
import { useNotify } from "@/components/ui/notifications";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { applyFuriganaToDraft } from "./furigana-fetch";
import { type Draft, draftErrors, type ErrorKey, normalize, type Path, setAt } from "./scene-content";
import { ownWrite } from "./own-versions";
import { ScenePreview } from "./scene-preview";
import { useDraftHistory } from "./use-draft-history";
import { SceneTypeFields } from "./scene-type-fields";

export interface EditableScene {
  id: string;
  type: SceneType;
  content: Draft;
}

/** A refusal shown in the form: someone else saved first, or the scene got an answer meanwhile. */
type Problem = "conflict" | "answered" | "failed" | "furiganaFailed" | "imageGone" | null;
const problemOf = (code: ErrorCode, fieldErrors?: Record<string, string[]>): Problem =>
  fieldErrors?.scene?.includes("answered") ? "answered" : fieldErrors?.scene?.includes("image") ? "imageGone" : code === "CONFLICT" ? "conflict" : "failed";

/**
 * One scene's content form with its live preview. It saves with the activity version it
 * was opened at, moved on at the click over this tab's own saves (own-versions.ts): after someone
 * else's change every save is refused until the teacher reloads, however often the page
 * itself is refreshed.
 */
export function SceneForm({ activityId, version: current, scene }: { activityId: string; version: number; scene: EditableScene }) {
  const t = useTranslations("SceneEditor");
  const router = useRouter();
  const notify = useNotify();
  const [savedAt, setSavedAt] = useState(current);
  const { draft, change, undo, canUndo } = useDraftHistory(scene.content);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => formRef.current?.querySelector<HTMLElement>("input, textarea")?.focus(), []);
  const [errors, setErrors] = useState<Record<string, ErrorKey>>({});
  const [problem, setProblem] = useState<Problem>(null);
  const [pending, startTransition] = useTransition();
  const [furiganaOnSave, setFuriganaOnSave] = useState(false);
  const candidate = { type: scene.type, content: normalize(scene.type, draft) };
  const checked = editedSceneSchema.safeParse(candidate);

  const onChange = (path: Path, value: unknown, typed?: boolean) => {
    change((d) => setAt(d, path, value), typed ? path.join(".") : undefined);
    setErrors((e) => {
      const key = ["content", ...path].join(".");
      return Object.fromEntries(Object.entries(e).filter(([k]) => k !== key && !key.startsWith(`${k}.`) && !k.startsWith(`${key}.`)));
    });
  };
  const save = () => {
    if (!checked.success) {
      setErrors(draftErrors(checked.error.issues));
      return;
    }
    setProblem(null);
    startTransition(async () => {
      let content = checked.data;
      let words: number | null = null;
      if (furiganaOnSave) {
        // the readings go into the fields first: what is stored is what the form and preview show
        const applied = await applyFuriganaToDraft(draft);
        if (!applied) return setProblem("furiganaFailed");
        change(() => applied.draft);
        const again = editedSceneSchema.safeParse({ type: scene.type, content: normalize(scene.type, applied.draft) });
        if (!again.success) return setErrors(draftErrors(again.error.issues));
        [content, words] = [again.data, applied.words];
      }
      // after this tab's changes still on their way, from the version this form last saw
      const result = await ownWrite(activityId, () => savedAt, (version) => saveSceneAction({ activityId, version, sceneId: scene.id, scene: content })).catch(() => null);
      if (result?.ok) {
        setSavedAt(result.data.version);
        notify({ message: words === null ? t("saved") : t("savedWithFurigana", { n: words }), kind: "success" });
        router.refresh();
      } else if (result && result.code === "VALIDATION" && result.fieldErrors && !result.fieldErrors.scene) {
        setErrors(Object.fromEntries(Object.keys(result.fieldErrors).map((k) => [k.replace(/^scene\./, ""), "invalid" as const])));
      } else setProblem(result ? problemOf(result.code, result.fieldErrors) : "failed");
    });
  };

  return (
    <div className="scene-editor" data-testid="scene-form">
      <form ref={formRef} className="stack" noValidate onSubmit={(e) => { e.preventDefault(); save(); }}>
        <SceneTypeFields type={scene.type} draft={draft} errors={errors} onChange={onChange} />
        {errors.content ? (
          <p className="field-error" data-testid="field-error">
            <RichTextClient text={t(`errors.${errors.content}`)} />
          </p>
        ) : null}
        {problem ? (
          <div className="alert alert-error" role="alert" data-testid="scene-problem">
            <span>
              <RichTextClient text={t(problem === "answered" ? "locked" : problem)} />
            </span>
            {problem === "conflict" || problem === "answered" ? (
              <button type="button" className="button button-small" onClick={() => window.location.reload()} data-testid="reload">
                <RichTextClient text={t("reload")} />
              </button>
            ) : null}
          </div>
        ) : null}
        <label className="row furigana-on-save">
          <input type="checkbox" checked={furiganaOnSave} onChange={(e) => setFuriganaOnSave(e.target.checked)} data-testid="furigana-on-save" />
          <RichTextClient text={t("furiganaOnSave")} />
        </label>
        <div className="row">
          <button type="button" className="button" disabled={!canUndo || pending} onClick={() => { undo(); setErrors({}); }} data-testid="undo">
            <RichTextClient text={t("undo")} />
          </button>
          <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending} data-testid="save-scene">
            <RichTextClient text={pending ? t("saving") : t("save")} />
          </button>
        </div>
      </form>
      <ScenePreview scene={{ id: scene.id, ...(checked.success ? checked.data : { type: "invalid", content: null }) }} />
    </div>
  );
}
