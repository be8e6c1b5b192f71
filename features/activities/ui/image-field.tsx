"use client";
import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { IMAGE_TYPES, type ImageProblem, imageUrl, MAX_ALT_LENGTH } from "@/features/scenes/shared/image-limits";
import type { ImageRef } from "@/features/scenes/shared/schema";
import { type Uploaded, uploadImage } from "./image-upload";
import { useEditorSchool } from "./editor-school";
import { type FieldProps, keyOf } from "./scene-content";

/**
 * The image of a scene or an option (features/scenes/README.md "Images"): choose a file (uploaded
 * at once, with its progress), its required alt text, replace, and remove after a confirmation.
 * The draft holds `{ id, alt, width, height }`; the scene's save stores it.
 */
export function ImageField({ label, path, value, errors, onChange }: FieldProps & { label: string }) {
  const t = useTranslations("SceneEditor.image");
  const plain = usePlainText();
  const { confirm, dialog } = useConfirm();
  const id = useId();
  const image = value && typeof value === "object" ? (value as Partial<ImageRef>) : null;
  const { fileRef, progress, problem, done, setDone, onFile } = useImageUpload((uploaded) =>
    onChange(path, { ...uploaded, alt: image?.alt ?? "" }),
  );
  const altError = errors[`${keyOf(path)}.alt`];
  const what = plain(label);

  const remove = async () => {
    if (
      await confirm({ title: t("confirmTitle"), body: t("confirmBody", { what }), confirm: t("remove"), danger: true })
    ) {
      onChange(path, undefined);
      setDone(false);
    }
  };
  const uploading = progress !== null;
  return (
    <fieldset className="image-field stack" data-testid="image-field" data-field={keyOf(path)}>
      <legend className="field-label">
        <RichTextClient text={label} />
      </legend>
      {image?.id ? (
        // eslint-disable-next-line @next/next/no-img-element -- the editor shows the stored image as students will get it
        <img
          className="image-field-preview"
          src={imageUrl(image.id)}
          alt={image.alt ?? ""}
          width={image.width}
          height={image.height}
        />
      ) : null}
      <div className="row image-field-actions">
        <label htmlFor={`${id}-file`}>
          <RichTextClient text={image?.id ? t("replace") : t("choose")} />
        </label>
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept={IMAGE_TYPES.join(",")}
          disabled={uploading}
          aria-label={plain(t(image?.id ? "replaceLabel" : "chooseLabel", { what }))}
          data-testid="image-file"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        {image?.id ? (
          <button
            type="button"
            className="button button-small"
            disabled={uploading}
            aria-label={plain(t("removeLabel", { what }))}
            data-testid="image-remove"
            onClick={() => void remove()}
          >
            <RichTextClient text={t("remove")} />
          </button>
        ) : null}
      </div>
      <p className="muted small">
        <RichTextClient text={t("hint")} />
      </p>
      <UploadStatus progress={progress} done={done} problem={problem} />
      {image?.id ? (
        <AltField id={id} alt={image.alt ?? ""} path={path} altError={altError} onChange={onChange} />
      ) : null}
      {dialog}
    </fieldset>
  );
}

/** Uploads a chosen file at once, with its progress; `onUploaded` puts the stored image in the draft. */
function useImageUpload(onUploaded: (image: Uploaded) => void) {
  const schoolId = useEditorSchool();
  const fileRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<ImageProblem | null>(null);
  const [done, setDone] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    setDone(false);
    setProgress(0);
    const result = await uploadImage(file, setProgress, schoolId);
    setProgress(null);
    if (fileRef.current) fileRef.current.value = "";
    if (!result.ok) return setProblem(result.problem);
    onUploaded(result.image);
    setDone(true);
  };
  return { fileRef, progress, problem, done, setDone, onFile };
}

/** The upload's progress while it runs, then 「アップロードしました」 or the problem. */
function UploadStatus({
  progress,
  done,
  problem,
}: {
  progress: number | null;
  done: boolean;
  problem: ImageProblem | null;
}) {
  const t = useTranslations("SceneEditor.image");
  const plain = usePlainText();
  return (
    <>
      {progress !== null ? (
        <div className="row" role="status" data-testid="image-progress">
          <progress max={100} value={progress} aria-label={plain(t("uploading", { percent: progress }))} />
          <RichTextClient text={t("uploading", { percent: progress })} />
        </div>
      ) : null}
      {done ? (
        <p className="muted small" role="status">
          <RichTextClient text={t("uploaded")} />
        </p>
      ) : null}
      {problem ? (
        <p className="alert alert-error" role="alert" data-testid="image-problem">
          <span>
            <RichTextClient text={t(`problems.${problem}`)} />
          </span>
        </p>
      ) : null}
    </>
  );
}

/** The image's required alt text, with its hint and error. */
function AltField({
  id,
  alt,
  path,
  altError,
  onChange,
}: {
  id: string;
  alt: string;
  path: FieldProps["path"];
  altError: FieldProps["errors"][string] | undefined;
  onChange: FieldProps["onChange"];
}) {
  const t = useTranslations("SceneEditor.image");
  const te = useTranslations("SceneEditor.errors");
  return (
    <div className="field">
      <label htmlFor={`${id}-alt`} className="field-label">
        <RichTextClient text={t("alt")} />
      </label>
      <input
        id={`${id}-alt`}
        value={alt}
        maxLength={MAX_ALT_LENGTH}
        required
        data-testid="image-alt"
        data-field={`${keyOf(path)}.alt`}
        aria-invalid={altError ? true : undefined}
        aria-describedby={`${id}-alt-hint${altError ? ` ${id}-alt-error` : ""}`}
        onChange={(e) => onChange([...path, "alt"], e.target.value, true)}
      />
      <p className="muted small" id={`${id}-alt-hint`}>
        <RichTextClient text={t("altHint")} />
      </p>
      {altError ? (
        <p className="field-error" id={`${id}-alt-error`} data-testid="field-error">
          <RichTextClient text={te(altError)} />
        </p>
      ) : null}
    </div>
  );
}
