"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { saveSceneAction } from "@/features/activities/server/actions";
import { editedSceneSchema } from "@/features/activities/shared/scene-schema";
import type { ErrorCode } from "@/platform/errors";
import type { Scene, SceneType } from "@/features/scenes/shared/schema";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { applyFuriganaToDraft } from "./furigana-fetch";
import { type Draft, draftErrors, type ErrorKey, keyOf, normalize, type Path, setAt } from "./scene-content";
import { EditorModeSwitch } from "./editor-mode";
import { useSchoolRef } from "./editor-school";
import { ownSave } from "./own-versions";
import { ScenePreview } from "./scene-preview";
import { useDraftHistory } from "./use-draft-history";
import { SceneRetype } from "./scene-retype";
import { SceneTypeFields } from "./scene-type-fields";
import { type AutosaveState, type SaveOutcome, useAutosave } from "./use-autosave";

export interface EditableScene {
  id: string;
  type: SceneType;
  content: Draft;
  /** Answers to the scene's current version: saving then makes a new version, after a confirmation. */
  answered?: number;
  /** The scene's current version (docs/adr/0059-scene-versions.md). */
  sceneVersion?: number;
}

/** A refusal shown in the form: someone else saved first, or the scene got an answer meanwhile. */
type Problem = "conflict" | "answered" | "failed" | "furiganaFailed" | "furiganaBusy" | "imageGone" | null;
const problemOf = (code: ErrorCode, fieldErrors?: Record<string, string[]>): Problem =>
  fieldErrors?.scene?.includes("answered")
    ? "answered"
    : fieldErrors?.scene?.includes("image")
      ? "imageGone"
      : code === "CONFLICT"
        ? "conflict"
        : "failed";
const PROBLEM_TEXT = {
  conflict: "conflictChoice",
  answered: "answersArrived",
  failed: "failed",
  furiganaFailed: "furiganaFailed",
  furiganaBusy: "furiganaBusy",
  imageGone: "imageGone",
} as const;

/**
 * One scene's content form with its live preview. It saves by itself after a pause in typing and
 * when it loses focus (use-autosave.ts), unless the scene's current version has answers: then only
 * 「新しい版として保存」 after a confirmation. It saves with the activity version it was opened at,
 * moved on at each save over this tab's own saves (own-versions.ts): after someone else's change every
 * save is refused until the teacher reloads or chooses to overwrite, however often the page refreshes.
 */
export function SceneForm({
  activityId,
  version: current,
  scene,
}: {
  activityId: string;
  version: number;
  scene: EditableScene;
}) {
  const t = useTranslations("SceneEditor");
  const form = useSceneForm(activityId, current, scene);
  const { formRef, draft, canUndo, undo, errors, setErrors, problem, pending, versioned, checked, autosave } = form;

  return (
    <div className="scene-editor" data-testid="scene-form">
      <form
        ref={formRef}
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void form.save();
        }}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) void autosave.flush();
        }}
      >
        {versioned && problem !== "answered" ? (
          <p className="alert alert-info" role="note" data-testid="version-note">
            <span>
              <RichTextClient text={t("versionNote", { n: scene.answered ?? 0 })} />
            </span>
          </p>
        ) : null}
        {(scene.answered ?? 0) === 0 && (scene.sceneVersion ?? 1) === 1 ? (
          <SceneRetype
            activityId={activityId}
            version={current}
            sceneId={scene.id}
            type={scene.type}
            draft={draft}
            beforeChange={autosave.flush}
          />
        ) : null}
        <EditorModeSwitch />
        <SceneTypeFields type={scene.type} draft={draft} errors={errors} onChange={form.onChange} />
        {errors.content ? (
          <p className="field-error" data-testid="field-error">
            <RichTextClient text={t(`errors.${errors.content}`)} />
          </p>
        ) : null}
        {problem ? <ProblemAlert problem={problem} onKeepMine={form.keepMine} /> : null}
        <AutosaveStatus state={versioned ? "idle" : autosave.state} onRetry={() => void autosave.flush()} />
        <label className="row furigana-on-save">
          <input
            type="checkbox"
            checked={form.furiganaOnSave}
            onChange={(e) => form.setFuriganaOnSave(e.target.checked)}
            data-testid="furigana-on-save"
          />
          <RichTextClient text={t("furiganaOnSave")} />
        </label>
        <SaveButtons
          undoDisabled={!canUndo || pending}
          pending={pending}
          versioned={versioned}
          onUndo={() => {
            undo();
            setErrors({});
          }}
        />
      </form>
      <ScenePreview
        scene={{ id: scene.id, ...(checked.success ? checked.data : { type: "invalid", content: null }) }}
      />
      {form.dialog}
    </div>
  );
}

/** The scene form's state: the draft with its history, errors, the refusal shown, the autosave and the saves. */
function useSceneForm(activityId: string, current: number, scene: EditableScene) {
  const t = useTranslations("SceneEditor");
  const notify = useNotify();
  const { confirm, dialog } = useConfirm();
  const { draft, change, undo, canUndo, errors, setErrors, onChange } = useSceneDraft(scene.content);
  const formRef = useRef<HTMLFormElement>(null);
  // the first text field's markup (the visual editor, loaded later, is not focused on its own)
  useEffect(() => formRef.current?.querySelector<HTMLElement>(".rich-field :is(input, textarea)")?.focus(), []);
  const [problem, setProblem] = useState<Problem>(null);
  const [pending, startTransition] = useTransition();
  const [furiganaOnSave, setFuriganaOnSave] = useState(false);
  const { send, rewind, school } = useSceneSend(activityId, current, scene.id, setProblem, setErrors);
  const candidate = { type: scene.type, content: normalize(scene.type, draft) };
  const checked = editedSceneSchema.safeParse(candidate);
  const sceneVersion = scene.sceneVersion ?? 1;
  // answers to this version: on the page, or arrived while editing (a save refused "answered")
  const versioned = (scene.answered ?? 0) > 0 || problem === "answered";

  const autosave = useAutosave({
    value: checked.success ? JSON.stringify(checked.data) : null,
    enabled: !versioned && problem === null && !pending,
    save: (value) => send(JSON.parse(value) as Scene),
  });

  const save = async () => {
    if (!checked.success) {
      setErrors(draftErrors(checked.error.issues));
      return;
    }
    if (
      versioned &&
      !(await confirm({
        title: t("versionTitle"),
        body: t("versionBody", { v: sceneVersion, next: sceneVersion + 1 }),
        confirm: t("saveVersion"),
      }))
    )
      return;
    setProblem(null);
    startTransition(async () => {
      let content = checked.data;
      let words: number | null = null;
      if (furiganaOnSave) {
        // the readings go into the fields first: what is stored is what the form and preview show
        const applied = await applyFuriganaToDraft(draft, school.schoolId);
        if (!applied || applied === "busy") return setProblem(applied ? "furiganaBusy" : "furiganaFailed");
        change(() => applied.draft);
        const again = editedSceneSchema.safeParse({ type: scene.type, content: normalize(scene.type, applied.draft) });
        if (!again.success) return setErrors(draftErrors(again.error.issues));
        [content, words] = [again.data, applied.words];
      }
      if ((await send(content, versioned)) !== "ok") return;
      autosave.markSaved(JSON.stringify(content));
      notify({ message: words === null ? t("saved") : t("savedWithFurigana", { n: words }), kind: "success" });
    });
  };
  /** After someone else's change: save this form's content over the version the page now shows. */
  const keepMine = () => {
    rewind();
    setProblem(null);
    void save();
  };
  return {
    formRef,
    draft,
    undo,
    canUndo,
    errors,
    setErrors,
    problem,
    pending,
    furiganaOnSave,
    setFuriganaOnSave,
    checked,
    versioned,
    autosave,
    onChange,
    save,
    keepMine,
    dialog,
  };
}

/** The draft with its undo history and its field errors; a change clears the errors at and around its field. */
function useSceneDraft(initial: Draft) {
  const { draft, change, undo, canUndo } = useDraftHistory(initial);
  const [errors, setErrors] = useState<Record<string, ErrorKey>>({});
  const onChange = (path: Path, value: unknown, typed?: boolean) => {
    change((d) => setAt(d, path, value), typed ? path.join(".") : undefined);
    setErrors((e) => {
      const key = keyOf(path);
      return Object.fromEntries(
        Object.entries(e).filter(([k]) => k !== key && !key.startsWith(`${k}.`) && !k.startsWith(`${key}.`)),
      );
    });
  };
  return { draft, change, undo, canUndo, errors, setErrors, onChange };
}

/**
 * One save of valid content, after this tab's other saves and with the version followed over them
 * (own-versions.ts); the form shows a refusal itself. The page follows from the action's own answer (it revalidates
 * the page); only someone else's change is loaded again at once.
 */
function useSceneSend(
  activityId: string,
  current: number,
  sceneId: string,
  setProblem: (problem: Problem) => void,
  setErrors: (errors: Record<string, ErrorKey>) => void,
) {
  const router = useRouter();
  const school = useSchoolRef();
  const savedAt = useRef(current);
  const send = async (content: Scene, newVersion = false): Promise<SaveOutcome> => {
    const result = await ownSave(activityId, savedAt.current, (version) =>
      saveSceneAction({
        ...school,
        activityId,
        version,
        sceneId,
        scene: content,
        ...(newVersion ? { newVersion } : {}),
      }),
    ).catch(() => null);
    if (result?.ok) {
      savedAt.current = result.data.version;
      setProblem(null);
      return "ok";
    }
    if (result && result.code === "VALIDATION" && result.fieldErrors && !result.fieldErrors.scene) {
      setErrors(
        Object.fromEntries(Object.keys(result.fieldErrors).map((k) => [k.replace(/^scene\./, ""), "invalid" as const])),
      );
      return "refused";
    }
    if (!result) return "failed";
    const refusal = problemOf(result.code, result.fieldErrors);
    setProblem(refusal);
    // someone else's change: load it now, so that "keep mine" saves over the version the teacher was told of
    if (refusal === "conflict") router.refresh();
    return refusal === "failed" ? "failed" : "refused";
  };
  /** Saves next over the version the page now shows. */
  const rewind = () => {
    savedAt.current = current;
  };
  return { send, rewind, school };
}

/** A refusal shown in the form; someone else's change offers to reload or to keep this form's content. */
function ProblemAlert({ problem, onKeepMine }: { problem: Exclude<Problem, null>; onKeepMine: () => void }) {
  const t = useTranslations("SceneEditor");
  return (
    <div className="alert alert-error" role="alert" data-testid="scene-problem">
      <span>
        <RichTextClient text={t(PROBLEM_TEXT[problem])} />
      </span>
      {problem === "conflict" ? (
        <span className="row">
          <button
            type="button"
            className="button button-small"
            onClick={() => window.location.reload()}
            data-testid="reload"
          >
            <RichTextClient text={t("reload")} />
          </button>
          <button type="button" className="button button-small" onClick={onKeepMine} data-testid="keep-mine">
            <RichTextClient text={t("keepMine")} />
          </button>
        </span>
      ) : null}
    </div>
  );
}

/** Undo the last edit, and save (as a new version once the scene has answers). */
function SaveButtons({
  undoDisabled,
  pending,
  versioned,
  onUndo,
}: {
  undoDisabled: boolean;
  pending: boolean;
  versioned: boolean;
  onUndo: () => void;
}) {
  const t = useTranslations("SceneEditor");
  return (
    <div className="row">
      <button type="button" className="button" disabled={undoDisabled} onClick={onUndo} data-testid="undo">
        <RichTextClient text={t("undo")} />
      </button>
      <button
        type="submit"
        className="button button-primary"
        disabled={pending}
        aria-busy={pending}
        data-testid="save-scene"
      >
        <RichTextClient text={pending ? t("saving") : versioned ? t("saveVersion") : t("save")} />
      </button>
    </div>
  );
}

/** The autosave's state, announced politely; a failed save offers a retry. */
function AutosaveStatus({ state, onRetry }: { state: AutosaveState; onRetry: () => void }) {
  const t = useTranslations("SceneEditor");
  return (
    <p
      className="row muted autosave-state"
      role="status"
      aria-live="polite"
      data-testid="autosave-state"
      data-state={state}
    >
      {state === "saving" ? <RichTextClient text={t("autosaving")} /> : null}
      {state === "saved" ? <RichTextClient text={t("autosaved")} /> : null}
      {state === "failed" ? (
        <>
          <RichTextClient text={t("autosaveFailed")} />
          <button type="button" className="button button-small" onClick={onRetry} data-testid="autosave-retry">
            <RichTextClient text={t("retry")} />
          </button>
        </>
      ) : null}
    </p>
  );
}
