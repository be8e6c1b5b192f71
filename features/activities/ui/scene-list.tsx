"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { addSceneAction, deleteSceneAction, duplicateSceneAction } from "@/features/activities/server/actions";
import type { ActionResult } from "@/platform/errors";
import { SCENE_TYPES, type SceneType } from "@/features/scenes/shared/schema";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { useSchoolRef } from "./editor-school";
import { ownSave, recordOwnVersion } from "./own-versions";
import { defaultContent } from "./scene-content";
import { SceneCurriculumCode } from "./curriculum-code-field";
import { type EditableScene, SceneForm } from "./scene-form";
import { SlidesImport } from "./slides-import";

export interface ListedScene extends EditableScene {
  /** The prompt as plain text in the current display language. */
  label: string;
  /** Answers to its current version: saving makes a new version (docs/adr/0059-scene-versions.md). */
  answered: number;
  /** Answers to any version: deleting retires the scene and keeps them. */
  answers: number;
  /** Its own 学習指導要領コード; null: the activity's applies. */
  curriculumCode?: string | null;
}

/** Every scene in default order: open one to edit its content, duplicate, delete, or add a new one. */
export function SceneList({
  activityId,
  version,
  scenes,
}: {
  activityId: string;
  version: number;
  scenes: ListedScene[];
}) {
  const t = useTranslations("SceneEditor");
  const [open, setOpen] = useState<string | null>(null);
  const [type, setType] = useState<SceneType>("single_choice");
  const { pending, dialog, remove, duplicate, add } = useSceneChanges(activityId, version, type, setOpen);

  return (
    <section className="stack" aria-labelledby="scene-list-heading">
      <h2 id="scene-list-heading">
        <RichTextClient text={t("heading")} />
      </h2>
      <p className="muted">
        <RichTextClient text={t("intro")} />
      </p>
      <ol className="stack scene-list" data-testid="scene-list">
        {scenes.map((scene, index) => {
          const isOpen = open === scene.id;
          return (
            <SceneItem
              key={scene.id}
              activityId={activityId}
              version={version}
              scene={scene}
              n={index + 1}
              isOpen={isOpen}
              pending={pending}
              deletable={scenes.length > 1}
              onToggle={() => setOpen(isOpen ? null : scene.id)}
              onDuplicate={() => duplicate(scene)}
              onDelete={() => void remove(scene, index + 1)}
            />
          );
        })}
      </ol>
      <AddScene type={type} onType={setType} pending={pending} onAdd={add} />
      <SlidesImport activityId={activityId} version={version} disabled={pending} />
      {dialog}
    </section>
  );
}

/** The list's structural changes (delete, duplicate, add), each saved over this tab's own versions; a new scene opens. */
function useSceneChanges(
  activityId: string,
  version: number,
  type: SceneType,
  setOpen: (sceneId: string | null) => void,
) {
  const t = useTranslations("SceneEditor");
  const td = useTranslations("SceneEditor.defaults");
  const { confirm, dialog } = useConfirm();
  const school = useSchoolRef();
  const { pending, run } = useActionRunner();

  const refusal = (result: ActionResult<unknown>) => {
    if (result.ok) return null;
    const reason = result.fieldErrors?.scene?.[0];
    return reason === "answered"
      ? t("locked")
      : reason === "last" || reason === "live" || reason === "tooMany"
        ? t(reason)
        : result.code === "CONFLICT"
          ? t("conflict")
          : t("failed");
  };
  /**
   * Runs a structural change; its refusal (if any) is the notification's message. The action's answer carries the
   * page as it now is (the action revalidates it): no second load, which a stalled request would hold, is asked for.
   */
  const change = (action: () => Promise<ActionResult<unknown>>, success: string, onOk?: (data: unknown) => void) => {
    let failure = t("failed");
    run(
      async () => {
        const result = await action();
        failure = refusal(result) ?? failure;
        return result;
      },
      {
        success,
        failure: () => failure,
        onOk: (data) => {
          recordOwnVersion(activityId, (data as { version: number }).version);
          onOk?.(data);
        },
      },
    );
  };
  const remove = async (scene: ListedScene, n: number) => {
    const body = scene.answers > 0 ? t("retireBody", { n, count: scene.answers }) : t("confirmBody", { n });
    if (!(await confirm({ title: t("confirmTitle"), body, confirm: t("delete"), danger: true }))) return;
    const retire = scene.answers > 0 ? { retire: true } : {};
    change(
      () =>
        ownSave(activityId, version, (v) =>
          deleteSceneAction({ ...school, activityId, version: v, sceneId: scene.id, ...retire }),
        ),
      t("deleted"),
    );
  };
  const opened = (data: unknown) => setOpen((data as { sceneId: string }).sceneId);
  const duplicate = (scene: ListedScene) =>
    change(
      () =>
        ownSave(activityId, version, (v) =>
          duplicateSceneAction({ ...school, activityId, version: v, sceneId: scene.id }),
        ),
      t("duplicated"),
      opened,
    );
  const add = () =>
    change(
      () =>
        ownSave(activityId, version, (v) =>
          addSceneAction({
            ...school,
            activityId,
            version: v,
            scene: { type, content: defaultContent(type, (k, x) => td(k, x)) } as never,
          }),
        ),
      t("added"),
      opened,
    );
  return { pending, dialog, remove, duplicate, add };
}

/** One scene in the list: its number, type, label and badges, the edit/duplicate/delete buttons, and its form when open. */
function SceneItem({
  activityId,
  version,
  scene,
  n,
  isOpen,
  pending,
  deletable,
  onToggle,
  onDuplicate,
  onDelete,
}: {
  activityId: string;
  version: number;
  scene: ListedScene;
  n: number;
  isOpen: boolean;
  pending: boolean;
  deletable: boolean;
  onToggle: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const t = useTranslations("SceneEditor");
  const te = useTranslations("Edit");
  const plain = usePlainText();
  return (
    <li className="card stack" data-scene-id={scene.id} data-testid="scene-item">
      <div className="row scene-item-head">
        <span className="order-number">{n}</span>
        <span className="order-label">
          <span className="order-type">
            <RichTextClient text={te(`types.${scene.type}`)} />
          </span>
          {scene.label}
        </span>
        <SceneBadges scene={scene} />
        <span className="row">
          <button
            type="button"
            className="button button-small"
            aria-expanded={isOpen}
            aria-label={plain(t(isOpen ? "closeLabel" : "editLabel", { n }))}
            data-testid="edit-scene"
            onClick={onToggle}
          >
            <RichTextClient text={isOpen ? t("close") : t("edit")} />
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={pending}
            aria-label={plain(t("duplicateLabel", { n }))}
            data-testid="duplicate-scene"
            onClick={onDuplicate}
          >
            <RichTextClient text={t("duplicate")} />
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={pending || !deletable}
            aria-label={plain(t("deleteLabel", { n }))}
            data-testid="delete-scene"
            onClick={onDelete}
          >
            <RichTextClient text={t("delete")} />
          </button>
        </span>
      </div>
      {isOpen ? (
        <>
          <SceneForm key={`${scene.id}:${scene.type}`} activityId={activityId} version={version} scene={scene} />
          <SceneCurriculumCode activityId={activityId} sceneId={scene.id} value={scene.curriculumCode ?? null} />
        </>
      ) : null}
    </li>
  );
}

/** A scene's badges: answered, and its version once it has more than one. */
function SceneBadges({ scene }: { scene: ListedScene }) {
  const t = useTranslations("SceneEditor");
  return (
    <>
      {scene.answers > 0 ? (
        <span className="badge" data-testid="answered-badge">
          <RichTextClient text={t("answered")} />
        </span>
      ) : null}
      {(scene.sceneVersion ?? 1) > 1 ? (
        <span className="badge" data-testid="version-badge">
          <RichTextClient text={t("versionBadge", { v: scene.sceneVersion ?? 1 })} />
        </span>
      ) : null}
    </>
  );
}

/** The scene type to add and the add button. */
function AddScene({
  type,
  onType,
  pending,
  onAdd,
}: {
  type: SceneType;
  onType: (type: SceneType) => void;
  pending: boolean;
  onAdd: () => void;
}) {
  const t = useTranslations("SceneEditor");
  const te = useTranslations("Edit");
  const plain = usePlainText();
  return (
    <div className="row">
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("addType")} />
        </span>
        <select value={type} onChange={(e) => onType(e.target.value as SceneType)} data-testid="add-type">
          {SCENE_TYPES.map((s) => (
            <option key={s} value={s}>
              {plain(te(`types.${s}`))}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button" disabled={pending} data-testid="add-scene" onClick={onAdd}>
        <RichTextClient text={t("add")} />
      </button>
    </div>
  );
}
