"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { retypeSceneAction } from "@/features/activities/server/actions";
import { editedSceneSchema } from "@/features/activities/shared/scene-schema";
import { SCENE_TYPES, type Scene, type SceneType } from "@/features/scenes/shared/schema";
import type { ActionResult } from "@/platform/errors";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { useSchoolRef } from "./editor-school";
import { ownSave, recordOwnVersion } from "./own-versions";
import { type DefaultKey, type Draft, defaultContent, normalize } from "./scene-content";

/**
 * `draft` as a scene of `type`: the new type's first content with the draft's prompt and image kept (a drawing keeps
 * "drawn on the picture" too), or null when that is not a valid scene (an empty prompt).
 */
export function retypedScene(draft: Draft, type: SceneType, words: (key: DefaultKey, v?: { n: number }) => string) {
  const kept: Draft = { prompt: draft.prompt };
  if (draft.image) kept.image = draft.image;
  if (type === "drawing" && draft.onImage) kept.onImage = true;
  const content = normalize(type, { ...defaultContent(type, words), ...kept });
  const checked = editedSceneSchema.safeParse({ type, content });
  return checked.success ? (checked.data as Scene) : null;
}

interface RetypeProps {
  activityId: string;
  version: number;
  sceneId: string;
  type: SceneType;
  draft: Draft;
  beforeChange: () => Promise<unknown>;
}

/**
 * 「問いの種類を変える」 in a scene's form (features/activities/README.md "Activity editor"): only for a scene never
 * answered (one version, no answers), after a confirmation; `beforeChange` saves what the form holds first. The
 * form opens again as the new type when the page refreshes.
 */
export function SceneRetype(props: RetypeProps) {
  const t = useTranslations("SceneEditor.retype");
  const te = useTranslations("Edit");
  const plain = usePlainText();
  const others = SCENE_TYPES.filter((s) => s !== props.type);
  const [type, setType] = useState<SceneType>(others[0]!);
  const { pending, dialog, change } = useRetype(props);
  return (
    <div className="row scene-retype" data-testid="scene-retype">
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("label")} />
        </span>
        <select value={type} onChange={(e) => setType(e.target.value as SceneType)} data-testid="retype-type">
          {others.map((s) => (
            <option key={s} value={s}>
              {plain(te(`types.${s}`))}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="retype-scene"
        onClick={() => void change(type, plain(te(`types.${type}`)))}
      >
        <RichTextClient text={t("button")} />
      </button>
      {dialog}
    </div>
  );
}

/** The change itself: checked, confirmed, sent after the form's own save, its outcome a notification. */
function useRetype({ activityId, version, sceneId, draft, beforeChange }: RetypeProps) {
  const t = useTranslations("SceneEditor.retype");
  const ts = useTranslations("SceneEditor");
  const td = useTranslations("SceneEditor.defaults");
  const school = useSchoolRef();
  const notify = useNotify();
  const { confirm, dialog } = useConfirm();
  const { pending, run } = useActionRunner();
  const refusal = (result: ActionResult<unknown>) => {
    const reason = result.ok ? null : result.fieldErrors?.scene?.[0];
    if (reason === "answered" || reason === "live") return t(reason);
    return !result.ok && result.code === "CONFLICT" ? ts("conflict") : t("failed");
  };
  const change = async (type: SceneType, typeName: string) => {
    const scene = retypedScene(draft, type, (k, x) => td(k, x));
    if (!scene) return notify({ message: t("promptFirst"), kind: "error" });
    const body = t("confirmBody", { type: typeName });
    if (!(await confirm({ title: t("confirmTitle"), body, confirm: t("confirm") }))) return;
    let failure = t("failed");
    run(
      async () => {
        await beforeChange();
        const result = await ownSave(activityId, version, (v) =>
          retypeSceneAction({ ...school, activityId, version: v, sceneId, scene }),
        );
        if (!result.ok) failure = refusal(result);
        return result;
      },
      {
        success: t("done", { type: typeName }),
        failure: () => failure,
        onOk: (data) => {
          recordOwnVersion(activityId, data.version);
        },
      },
    );
  };
  return { pending, dialog, change };
}
