"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { type RefObject, useId, useRef, useState } from "react";
import { saveOrderAction } from "@/features/activities/server/actions";
import type { SceneType } from "@/features/scenes/shared/schema";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { activityErrorKey } from "./error-message";
import { useSchoolRef } from "./editor-school";
import { ownSave, recordOwnVersion } from "./own-versions";
import { FuriganaSuggest } from "./furigana-suggest";
import { MarkupToolbar, useFieldTarget } from "./markup-toolbar";

export interface EditorScene {
  id: string;
  type: SceneType;
  /** The prompt as plain text in the current display language. */
  label: string;
}

function move(list: string[], from: number, to: number): string[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

function OrderList({
  order,
  scenes,
  onChange,
  testId,
}: {
  order: string[];
  scenes: Map<string, EditorScene>;
  onChange: (o: string[]) => void;
  testId: string;
}) {
  const t = useTranslations("Edit");
  const plain = usePlainText();
  const [dragging, setDragging] = useState<number | null>(null);
  return (
    <ol className="order-list" data-testid={testId}>
      {order.map((id, index) => {
        const scene = scenes.get(id)!;
        return (
          <li
            key={id}
            className="order-item"
            data-scene-id={id}
            draggable
            onDragStart={(e) => {
              setDragging(index);
              e.dataTransfer.effectAllowed = "move";
              e.dataTransfer.setData("text/plain", id);
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              if (dragging !== null) onChange(move(order, dragging, index));
              setDragging(null);
            }}
          >
            <span className="order-handle" aria-hidden="true">
              ⋮⋮
            </span>
            <span className="order-number">{index + 1}</span>
            <span className="order-label">
              <span className="order-type">
                <RichTextClient text={t(`types.${scene.type}`)} />
              </span>
              {scene.label}
            </span>
            <span className="row">
              <button
                type="button"
                className="button button-small"
                disabled={index === 0}
                data-testid="move-up"
                aria-label={plain(t("moveUp", { scene: `${index + 1}. ${scene.label}` }))}
                onClick={() => onChange(move(order, index, index - 1))}
              >
                ↑
              </button>
              <button
                type="button"
                className="button button-small"
                disabled={index === order.length - 1}
                data-testid="move-down"
                aria-label={plain(t("moveDown", { scene: `${index + 1}. ${scene.label}` }))}
                onClick={() => onChange(move(order, index, index + 1))}
              >
                ↓
              </button>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** Title and scene order, with an optional order per counterbalance group (docs/product-design.md). */
export function SceneOrderEditor(props: {
  activityId: string;
  version: number;
  title: string;
  scenes: EditorScene[];
  groups: string[];
  groupOrders: Record<string, string[]>;
}) {
  const t = useTranslations("Edit");
  const ta = useTranslations("Activities");
  const scenes = new Map(props.scenes.map((s) => [s.id, s]));
  const [version, setVersion] = useState(props.version);
  const [title, setTitle] = useState(props.title);
  const [order, setOrder] = useState(props.scenes.map((s) => s.id));
  const [groupOrders, setGroupOrders] = useState<Record<string, string[] | null>>(
    Object.fromEntries(props.groups.map((g) => [g, props.groupOrders[g] ?? null])),
  );
  const { pending, run } = useActionRunner();
  const school = useSchoolRef();
  const titleId = useId();
  const titleRef = useRef<HTMLInputElement>(null);

  const save = () =>
    run(
      () =>
        ownSave(props.activityId, version, (v) =>
          saveOrderAction({ ...school, activityId: props.activityId, version: v, title, order, groupOrders }),
        ),
      {
        success: t("saved"),
        failure: (code) => ta(activityErrorKey("order", code)),
        onOk: (data) => {
          recordOwnVersion(props.activityId, data.version);
          setVersion(data.version);
        },
      },
    );

  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <TitleField titleId={titleId} titleRef={titleRef} title={title} onTitle={setTitle} />
      <FuriganaSuggest text={title} onApply={setTitle} schoolId={school.schoolId} />
      <p className="muted">
        <RichTextClient text={t("dragHint")} /> <RichTextClient text={t("contentNote")} />
      </p>
      <section className="stack">
        <h2>
          <RichTextClient text={t("defaultOrder")} />
        </h2>
        <OrderList order={order} scenes={scenes} onChange={setOrder} testId="order-default" />
      </section>
      {props.groups.map((group) => (
        <GroupOrder
          key={group}
          group={group}
          own={groupOrders[group] ?? null}
          scenes={scenes}
          onSame={(same) => setGroupOrders((all) => ({ ...all, [group]: same ? null : [...order] }))}
          onChange={(o) => setGroupOrders((all) => ({ ...all, [group]: o }))}
        />
      ))}
      <SaveRow pending={pending} />
    </form>
  );
}

/** Save, and back to the list. */
function SaveRow({ pending }: { pending: boolean }) {
  const t = useTranslations("Edit");
  return (
    <div className="row">
      <button
        type="submit"
        className="button button-primary"
        disabled={pending}
        aria-busy={pending}
        data-testid="save-order"
      >
        <RichTextClient text={pending ? t("saving") : t("save")} />
      </button>
      <Link href="/dashboard/teacher/activities" className="button">
        <RichTextClient text={t("back")} />
      </Link>
    </div>
  );
}

/** The title with its toolbar. */
function TitleField({
  titleId,
  titleRef,
  title,
  onTitle,
}: {
  titleId: string;
  titleRef: RefObject<HTMLInputElement | null>;
  title: string;
  onTitle: (title: string) => void;
}) {
  const t = useTranslations("Edit");
  const target = useFieldTarget(titleRef, title, onTitle);
  return (
    <div className="field rich-field">
      <label className="field-label" htmlFor={titleId}>
        <RichTextClient text={t("titleLabel")} />
      </label>
      <MarkupToolbar target={target} keysRef={titleRef} />
      <input
        id={titleId}
        ref={titleRef}
        name="title"
        value={title}
        maxLength={200}
        onChange={(e) => onTitle(e.target.value)}
      />
    </div>
  );
}

/** A counterbalance group's order: the default order, or its own. */
function GroupOrder({
  group,
  own,
  scenes,
  onSame,
  onChange,
}: {
  group: string;
  own: string[] | null;
  scenes: Map<string, EditorScene>;
  onSame: (same: boolean) => void;
  onChange: (order: string[]) => void;
}) {
  const t = useTranslations("Edit");
  return (
    <section className="stack" data-group={group}>
      <h2>
        <RichTextClient text={t("groupOrder", { group })} />
      </h2>
      <label className="row">
        <input
          type="checkbox"
          checked={own === null}
          data-testid={`same-${group}`}
          onChange={(e) => onSame(e.target.checked)}
        />
        <RichTextClient text={t("sameAsDefault")} />
      </label>
      {own ? <OrderList order={own} scenes={scenes} testId={`order-${group}`} onChange={onChange} /> : null}
    </section>
  );
}
