"use client";
import { useTranslations } from "next-intl";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { SceneImage } from "./scene-image";
import type { RenderedOption, RenderedScene, SceneAnswer } from "./types";

type Ordering = Extract<RenderedScene, { type: "ordering" }>;

/** The items in the student's order (their answer's, else as first shown), unknown ids left out. */
export function currentOrder(scene: Ordering, a: Record<string, unknown>): RenderedOption[] {
  const order = Array.isArray(a.order) ? (a.order as string[]) : [];
  const byId = new Map(scene.items.map((i) => [i.id, i]));
  const chosen = order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  return chosen.length === scene.items.length ? chosen : scene.items;
}

/**
 * 並べ替え: the items as a numbered list, each moved with 上へ / 下へ buttons (touch and keyboard; no dragging). A
 * student who finds the first order right answers with 「この順番で答える」. With the key (a staff preview, or
 * feedback) the right order is listed under it and each item in its right place is marked.
 */
export function OrderingAnswer({
  scene,
  a,
  uid,
  readOnly,
  onAnswer,
}: {
  scene: Ordering;
  a: Record<string, unknown>;
  uid: string;
  readOnly?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  const t = useTranslations("Scenes.ordering");
  const tc = useTranslations("Scenes");
  const items = currentOrder(scene, a);
  const answered = Array.isArray(a.order);
  const move = (from: number, to: number) => {
    const next = items.map((i) => i.id);
    [next[from], next[to]] = [next[to]!, next[from]!];
    onAnswer({ order: next });
  };
  return (
    <div className="stack ordering" data-testid="ordering">
      <ol className="bare-list stack order-list" aria-labelledby={`${uid}-prompt`}>
        {items.map((o, i) => (
          <li
            key={o.id}
            className="card order-item"
            data-item={o.id}
            data-correct={scene.key?.[i] === o.id ? "true" : undefined}
          >
            <span className="order-position" aria-hidden="true">
              {i + 1}
            </span>
            <span className="order-label">
              <span className="visually-hidden">
                <RichTextClient text={t("position", { n: i + 1 })} />
              </span>
              {o.label}
              {o.image ? <SceneImage image={o.image} className="option-image" /> : null}
            </span>
            {readOnly ? null : <MoveButtons i={i} last={items.length - 1} move={move} />}
          </li>
        ))}
      </ol>
      {!readOnly && !answered ? (
        <button
          type="button"
          className="button"
          data-testid="order-confirm"
          onClick={() => onAnswer({ order: items.map((i) => i.id) })}
        >
          <RichTextClient text={t("confirm")} />
        </button>
      ) : null}
      {scene.key ? <RightOrder scene={scene} title={tc("correctOption")} /> : null}
    </div>
  );
}

/** An item's 上へ / 下へ buttons (named by its position, read without markup). */
function MoveButtons({ i, last, move }: { i: number; last: number; move: (from: number, to: number) => void }) {
  const t = useTranslations("Scenes.ordering");
  const plain = usePlainText();
  return (
    <span className="order-moves">
      <button
        type="button"
        className="button button-small"
        disabled={i === 0}
        aria-label={plain(t("moveUpLabel", { n: i + 1 }))}
        onClick={() => move(i, i - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={i === last}
        aria-label={plain(t("moveDownLabel", { n: i + 1 }))}
        onClick={() => move(i, i + 1)}
      >
        ↓
      </button>
    </span>
  );
}

/** The right order, once it may be shown. */
function RightOrder({ scene, title }: { scene: Ordering; title: string }) {
  const byId = new Map(scene.items.map((i) => [i.id, i]));
  return (
    <div className="stack" data-testid="correct-order">
      <span className="badge badge-correct" data-testid="correct-mark">
        <RichTextClient text={title} />
      </span>
      <ol className="order-key">
        {(scene.key ?? []).map((id) => (
          <li key={id}>{byId.get(id)?.label}</li>
        ))}
      </ol>
    </div>
  );
}
