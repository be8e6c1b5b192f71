"use client";
import { useTranslations } from "next-intl";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import type { SceneType } from "@/features/scenes/shared/schema";
import { type Draft, type ErrorKey, getAt, type OnChange, type Path } from "./scene-content";
import { ImageField } from "./image-field";
import { ItemSceneFields } from "./item-fields";
import { TypedSceneFields } from "./typed-scene-fields";
import { CheckField, NumberField, OptionsField, TextField } from "./scene-fields";

type Option = { id: string; label: string };

/** The fields of one scene type: exactly what its stored content schema holds (features/scenes/shared/schema.ts). */
export function SceneTypeFields({
  type,
  draft,
  errors,
  onChange,
}: {
  type: SceneType;
  draft: Draft;
  errors: Record<string, ErrorKey>;
  onChange: OnChange;
}) {
  const t = useTranslations("SceneEditor.fields");
  const f = (path: Path) => ({ path, value: getAt(draft, path), errors, onChange });
  const tImage = useTranslations("SceneEditor.image");
  const prompt = (
    <>
      <TextField label={t("prompt")} multiline {...f(["prompt"])} />
      <ImageField label={tImage("sceneImage")} {...f(["image"])} />
    </>
  );
  switch (type) {
    case "info":
      return (
        <>
          {prompt}
          <TextField label={t("body")} multiline optional {...f(["body"])} />
        </>
      );
    case "single_choice":
      return (
        <>
          {prompt}
          <OptionsField label={t("options")} correctable {...f(["options"])} />
        </>
      );
    case "multiple_choice":
      return (
        <>
          {prompt}
          <OptionsField label={t("options")} correctable {...f(["options"])} />
          <div className="row">
            <NumberField label={t("min")} min={0} max={12} {...f(["min"])} />
            <NumberField label={t("max")} min={1} max={12} {...f(["max"])} />
          </div>
        </>
      );
    case "free_text":
      return (
        <>
          {prompt}
          <TextField label={t("placeholder")} optional {...f(["placeholder"])} />
          <NumberField label={t("maxLength")} min={1} max={10000} {...f(["maxLength"])} />
        </>
      );
    case "scale":
      return (
        <>
          {prompt}
          <p className="muted">
            <RichTextClient text={t("scaleNote")} />
          </p>
          <TextField label={t("minLabel")} {...f(["minLabel"])} />
          <TextField label={t("maxLabel")} {...f(["maxLabel"])} />
        </>
      );
    case "drawing":
      return <DrawingFields draft={draft} f={f} prompt={prompt} />;
    case "two_step":
      return <TwoStepFields draft={draft} f={f} onChange={onChange} prompt={prompt} />;
    case "ordering":
    case "matching":
      return <ItemSceneFields type={type} draft={draft} f={f} prompt={prompt} />;
    case "fill_blanks":
    case "number":
    case "word_cloud":
      return <TypedSceneFields type={type} f={f} prompt={prompt} />;
  }
}

/** Drawing: the instructions, and whether students draw on the scene's image. */
function DrawingFields({
  draft,
  f,
  prompt,
}: {
  draft: Draft;
  f: (path: Path) => { path: Path; value: unknown; errors: Record<string, ErrorKey>; onChange: OnChange };
  prompt: React.ReactNode;
}) {
  const t = useTranslations("SceneEditor.fields");
  return (
    <>
      {prompt}
      <TextField label={t("instructions")} multiline optional {...f(["instructions"])} />
      {getAt(draft, ["image"]) ? <CheckField label={t("onImage")} {...f(["onImage"])} /> : null}
    </>
  );
}

/** Two-step: the first choice, the second (shared options, or options per first choice), and the reason prompt. */
function TwoStepFields({
  draft,
  f,
  onChange,
  prompt,
}: {
  draft: Draft;
  f: (path: Path) => { path: Path; value: unknown; errors: Record<string, ErrorKey>; onChange: OnChange };
  onChange: OnChange;
  prompt: React.ReactNode;
}) {
  const t = useTranslations("SceneEditor.fields");
  const firstOptions = (getAt(draft, ["first", "options"]) ?? []) as Option[];
  const byFirst = getAt(draft, ["second", "optionsByFirst"]) as Record<string, Option[]> | undefined;
  const shared = getAt(draft, ["second", "options"]) as Option[] | undefined;
  // options per first choice must cover every first option unless shared options exist
  const onAdd = (id: string) => {
    if (byFirst && !shared)
      onChange(
        ["second", "optionsByFirst", id],
        [
          { id: "o1", label: "" },
          { id: "o2", label: "" },
        ],
      );
  };
  const onRemove = (id: string) => {
    if (byFirst?.[id]) onChange(["second", "optionsByFirst", id], undefined);
  };
  return (
    <>
      {prompt}
      <TextField label={t("firstPrompt")} multiline {...f(["first", "prompt"])} />
      <OptionsField
        label={t("firstOptions")}
        correctable
        {...f(["first", "options"])}
        onAdd={onAdd}
        onRemove={onRemove}
      />
      <TextField label={t("secondPrompt")} multiline {...f(["second", "prompt"])} />
      {shared ? <OptionsField label={t("secondOptions")} correctable {...f(["second", "options"])} /> : null}
      {firstOptions.map((o) =>
        byFirst?.[o.id] ? (
          <OptionsField
            key={o.id}
            label={t("secondFor", { option: o.label })}
            correctable
            {...f(["second", "optionsByFirst", o.id])}
          />
        ) : null,
      )}
      <TextField label={t("reasonPrompt")} multiline {...f(["reasonPrompt"])} />
    </>
  );
}
