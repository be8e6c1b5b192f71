"use client";
import { useTranslations } from "next-intl";
import { lazy, Suspense, useId, useRef } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { useEditorSchool } from "./editor-school";
import { FuriganaSuggest } from "./furigana-suggest";
import { ImageField } from "./image-field";
import { useEditorMode } from "./editor-mode";
import { MarkupToolbar, type ToolbarTarget, useFieldTarget } from "./markup-toolbar";
import { type ErrorKey, type FieldProps, keyOf, nextOptionId } from "./scene-content";

const MAX_TEXT = 4000;

/** Loaded when a teacher first chooses the visual mode: the editor page's first load stays without it. */
const VisualField = lazy(() => import("./visual-field"));

export function FieldError({ id, error }: { id: string; error: ErrorKey | undefined }) {
  const t = useTranslations("SceneEditor.errors");
  if (!error) return null;
  return (
    <p className="field-error" id={id} data-testid="field-error">
      <RichTextClient text={t(error)} />
    </p>
  );
}

/**
 * A rich-text field: the formatting toolbar over the markup field or the visual editor (the
 * teacher's mode), furigana proposals under it (the stored markup is never typed by hand).
 */
export function TextField({
  label,
  path,
  value,
  errors,
  onChange,
  multiline,
  optional,
}: FieldProps & { label: string; multiline?: boolean; optional?: boolean }) {
  const t = useTranslations("Toolbar");
  const id = useId();
  const schoolId = useEditorSchool();
  const mode = useEditorMode();
  const box = useRef<HTMLDivElement>(null);
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const error = errors[keyOf(path)];
  const text = typeof value === "string" ? value : "";
  const set = (next: string) => onChange(path, next);
  const fieldTarget = useFieldTarget(ref, text, set);
  const visualTarget = useRef<ToolbarTarget | null>(null);
  const described = { "aria-describedby": error ? `${id}-error` : undefined, "aria-invalid": error ? true : undefined };
  const common = {
    id,
    ref,
    value: text,
    ...described,
    required: !optional,
    maxLength: MAX_TEXT,
    "data-field": keyOf(path),
    onChange: (e: { target: { value: string } }) => onChange(path, e.target.value, true),
  };
  const visual = mode === "visual";
  return (
    <div className="field rich-field" ref={box}>
      <label htmlFor={visual ? undefined : id} id={`${id}-label`} className="field-label">
        <RichTextClient text={label} />
      </label>
      <MarkupToolbar target={visual ? visualTarget : fieldTarget} keysRef={box} />
      {visual ? (
        <Suspense
          fallback={
            <p className="muted" data-testid="visual-loading">
              <RichTextClient text={t("visualLoading")} />
            </p>
          }
        >
          <VisualField
            value={text}
            onChange={(next, typed) => onChange(path, next, typed)}
            targetRef={visualTarget}
            multiline={multiline === true}
            maxLength={MAX_TEXT}
            attributes={{
              "aria-describedby": described["aria-describedby"],
              "aria-invalid": error ? "true" : undefined,
              role: "textbox",
              "aria-multiline": multiline ? "true" : "false",
              "aria-labelledby": `${id}-label`,
              lang: "ja",
              "data-field": keyOf(path),
              "data-testid": "visual-field",
            }}
          />
        </Suspense>
      ) : multiline ? (
        <textarea rows={3} {...common} />
      ) : (
        <input {...common} />
      )}
      <FieldError id={`${id}-error`} error={error} />
      <FuriganaSuggest text={text} onApply={set} schoolId={schoolId} />
    </div>
  );
}

/** An optional whole number (empty = not set). */
export function NumberField({
  label,
  path,
  value,
  errors,
  onChange,
  min,
  max,
  decimal,
}: FieldProps & {
  label: string;
  min: number;
  max: number;
  /** Any number (a number scene's key), not only whole ones. */ decimal?: boolean;
}) {
  const id = useId();
  const error = errors[keyOf(path)];
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <RichTextClient text={label} />
      </label>
      <input
        id={id}
        type="number"
        inputMode={decimal ? "decimal" : "numeric"}
        step={decimal ? "any" : undefined}
        min={min}
        max={max}
        value={typeof value === "number" ? value : ""}
        data-field={keyOf(path)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) =>
          onChange(
            path,
            e.target.value === "" ? undefined : decimal ? Number(e.target.value) : Math.trunc(Number(e.target.value)),
            true,
          )
        }
      />
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/** A yes/no setting of the content (a native checkbox); unchecked leaves it out of the content. */
export function CheckField({ label, path, value, onChange }: FieldProps & { label: string }) {
  return (
    <label className="row">
      <input
        type="checkbox"
        checked={value === true}
        data-field={keyOf(path)}
        onChange={(e) => onChange(path, e.target.checked ? true : undefined)}
      />
      <RichTextClient text={label} />
    </label>
  );
}

type Option = { id: string; label: string; correct?: boolean; image?: unknown };

/** The option's 「正解」 checkbox (a native one: Space toggles it); unchecked leaves the flag out of the content. */
function CorrectBox({ n, checked, onToggle }: { n: number; checked: boolean; onToggle: (on: boolean) => void }) {
  const t = useTranslations("SceneEditor.fields");
  const plain = usePlainText();
  return (
    <label className="row correct-box">
      <input
        type="checkbox"
        checked={checked}
        aria-label={plain(t("correctLabel", { n }))}
        data-testid="option-correct"
        onChange={(e) => onToggle(e.target.checked)}
      />
      <RichTextClient text={t("correct")} />
    </label>
  );
}

/** The button that adds an option under the others. */
function AddOptionButton({ disabled, onAdd }: { disabled: boolean; onAdd: () => void }) {
  const t = useTranslations("SceneEditor.fields");
  return (
    <button type="button" className="button button-small" disabled={disabled} data-testid="add-option" onClick={onAdd}>
      <RichTextClient text={t("addOption")} />
    </button>
  );
}

/**
 * Options: a label each, add (up to 12) and remove (down to 2), and with `correctable` a 「正解」 box each.
 * `onAdd`/`onRemove` let a two-step scene keep its second options in step.
 */
export function OptionsField({
  label,
  path,
  value,
  errors,
  onChange,
  onAdd,
  onRemove,
  correctable,
}: FieldProps & {
  label: string;
  onAdd?: (id: string) => void;
  onRemove?: (id: string) => void;
  correctable?: boolean;
}) {
  const t = useTranslations("SceneEditor.fields");
  const tImage = useTranslations("SceneEditor.image");
  const plain = usePlainText();
  const options = Array.isArray(value) ? (value as Option[]) : [];
  const listError = errors[keyOf(path)];
  return (
    <fieldset className="stack option-fields" data-field={keyOf(path)}>
      <legend className="field-label">
        <RichTextClient text={label} />
      </legend>
      {options.map((o, i) => (
        <div key={o.id} className="stack option-block">
          <div className="row option-field">
            <TextField
              label={t("option", { n: i + 1 })}
              path={[...path, i, "label"]}
              value={o.label}
              errors={errors}
              onChange={onChange}
            />
            {correctable ? (
              <CorrectBox
                n={i + 1}
                checked={o.correct === true}
                onToggle={(on) => onChange([...path, i, "correct"], on ? true : undefined)}
              />
            ) : null}
            <button
              type="button"
              className="button button-small"
              disabled={options.length <= 2}
              aria-label={plain(t("removeOption", { n: i + 1 }))}
              onClick={() => {
                onChange(
                  path,
                  options.filter((x) => x.id !== o.id),
                );
                onRemove?.(o.id);
              }}
            >
              ×
            </button>
          </div>
          <ImageField
            label={tImage("optionImage", { n: i + 1 })}
            path={[...path, i, "image"]}
            value={o.image}
            errors={errors}
            onChange={onChange}
          />
        </div>
      ))}
      <FieldError id={`${keyOf(path)}-error`} error={listError} />
      <AddOptionButton
        disabled={options.length >= 12}
        onAdd={() => {
          const id = nextOptionId(options);
          onChange(path, [...options, { id, label: "" }]);
          onAdd?.(id);
        }}
      />
    </fieldset>
  );
}
