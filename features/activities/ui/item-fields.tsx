"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useId } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import {
  type Draft,
  type ErrorKey,
  type FieldProps,
  getAt,
  keyOf,
  newItemId,
  type OnChange,
  type Path,
} from "./scene-content";
import { ImageField } from "./image-field";
import { FieldError, TextField } from "./scene-fields";

type Item = { id: string; label: string; correct?: string; image?: unknown };
type F = (path: Path) => { path: Path; value: unknown; errors: Record<string, ErrorKey>; onChange: OnChange };

/** The limits of an ordering's or matching's item list (features/scenes/shared/schema.ts). */
const MIN_ITEMS = 2;
const MAX_ITEMS = 8;

/** An item's 上へ / 下へ (when `movable`) and remove buttons, each giving the whole list as it becomes. */
function ItemButtons({
  items,
  i,
  movable,
  onChange,
}: {
  items: Item[];
  i: number;
  movable?: boolean;
  onChange: (next: Item[]) => void;
}) {
  const t = useTranslations("SceneEditor.fields");
  const plain = usePlainText();
  const swap = (to: number) => {
    const next = [...items];
    [next[i], next[to]] = [next[to]!, next[i]!];
    onChange(next);
  };
  const button = (
    key: "moveItemUp" | "moveItemDown" | "removeItem",
    disabled: boolean,
    run: () => void,
    text: string,
  ) => (
    <button
      type="button"
      className="button button-small"
      disabled={disabled}
      aria-label={plain(t(key, { n: i + 1 }))}
      onClick={run}
    >
      {text}
    </button>
  );
  return (
    <>
      {movable ? button("moveItemUp", i === 0, () => swap(i - 1), "↑") : null}
      {movable ? button("moveItemDown", i === items.length - 1, () => swap(i + 1), "↓") : null}
      {button("removeItem", items.length <= MIN_ITEMS, () => onChange(items.filter((_, j) => j !== i)), "×")}
    </>
  );
}

/**
 * An ordering's or matching's items: a label and an image each, add (up to 8) and remove (down to 2); `movable`
 * adds 上へ / 下へ (an ordering's items are written in the right order); `extra` adds a control per item.
 */
export function ItemsField({
  label,
  path,
  value,
  errors,
  onChange,
  movable,
  extra,
}: FieldProps & { label: string; movable?: boolean; extra?: (item: Item, i: number) => ReactNode }) {
  const t = useTranslations("SceneEditor.fields");
  const tImage = useTranslations("SceneEditor.image");
  const items = Array.isArray(value) ? (value as Item[]) : [];
  return (
    <fieldset className="stack option-fields" data-field={keyOf(path)}>
      <legend className="field-label">
        <RichTextClient text={label} />
      </legend>
      {items.map((o, i) => (
        <div key={o.id} className="stack option-block" data-item-row={i + 1}>
          <div className="row option-field">
            <TextField
              label={t("item", { n: i + 1 })}
              path={[...path, i, "label"]}
              value={o.label}
              errors={errors}
              onChange={onChange}
            />
            <ItemButtons items={items} i={i} movable={movable} onChange={(next) => onChange(path, next)} />
          </div>
          {extra?.(o, i)}
          <ImageField
            label={tImage("optionImage", { n: i + 1 })}
            path={[...path, i, "image"]}
            value={o.image}
            errors={errors}
            onChange={onChange}
          />
        </div>
      ))}
      <FieldError id={`${keyOf(path)}-error`} error={errors[keyOf(path)]} />
      <button
        type="button"
        className="button button-small"
        disabled={items.length >= MAX_ITEMS}
        data-testid="add-item"
        onClick={() => onChange(path, [...items, { id: newItemId(), label: "" }])}
      >
        <RichTextClient text={t("addItem")} />
      </button>
    </fieldset>
  );
}

/** The right item a matching's left item goes with: a select of the right items by their text. */
function MatchSelect({ n, right, f }: { n: number; right: Item[]; f: F }) {
  const t = useTranslations("SceneEditor.fields");
  const plain = usePlainText();
  const id = useId();
  const { path, value, errors, onChange } = f(["left", n - 1, "correct"]);
  const error = errors[keyOf(path)];
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <RichTextClient text={t("matchOf", { n })} />
      </label>
      <select
        id={id}
        value={typeof value === "string" && right.some((r) => r.id === value) ? value : ""}
        data-field={keyOf(path)}
        data-testid="match-correct"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(path, e.target.value || undefined)}
      >
        <option value="">{plain(t("chooseMatch"))}</option>
        {right.map((r, i) => (
          <option key={r.id} value={r.id}>
            {`${i + 1}　${plain(r.label)}`}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/** 並べ替え: the items in the right order. 線でつなぐ: the left items, each with the right item it goes with, then the right items. */
export function ItemSceneFields({
  type,
  draft,
  f,
  prompt,
}: {
  type: "ordering" | "matching";
  draft: Draft;
  f: F;
  prompt: ReactNode;
}) {
  const t = useTranslations("SceneEditor.fields");
  const right = (getAt(draft, ["right"]) ?? []) as Item[];
  if (type === "ordering")
    return (
      <>
        {prompt}
        <ItemsField label={t("orderItems")} movable {...f(["items"])} />
      </>
    );
  return (
    <>
      {prompt}
      <ItemsField
        label={t("leftItems")}
        {...f(["left"])}
        extra={(_, i) => <MatchSelect n={i + 1} right={right} f={f} />}
      />
      <ItemsField label={t("rightItems")} {...f(["right"])} />
    </>
  );
}
