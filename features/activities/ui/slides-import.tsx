"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { useSchoolRef } from "./editor-school";
import { ownSave } from "./own-versions";
import { type SlidesProgress, uploadSlides } from "./slides-upload";
import { SLIDES_SCENE_TYPES, type SlidesSceneType } from "@/features/scenes/shared/slide-limits";

/**
 * 「PDFから追加」: a PDF's pages become scenes after the last one (features/scenes/README.md "Slides from a PDF"),
 * with the sending's and then the pages' progress, and the refusal in words when it is refused.
 */
export function SlidesImport({
  activityId,
  version,
  disabled,
}: {
  activityId: string;
  version: number;
  disabled: boolean;
}) {
  const t = useTranslations("SceneEditor.slides");
  const plain = usePlainText();
  const notify = useNotify();
  const router = useRouter();
  const school = useSchoolRef();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<SlidesProgress | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [as, setAs] = useState<SlidesSceneType>("info");

  const send = async (file: File) => {
    setProblem(null);
    setProgress({ stage: "upload", percent: 0 });
    const result = await ownSave(activityId, version, async (v) => {
      const r = await uploadSlides(file, { activityId, version: v, as, ...school }, setProgress);
      return r.ok ? { ok: true, data: { version: r.version, added: r.added } } : { ok: false, problem: r.problem };
    });
    setProgress(null);
    if (input.current) input.current.value = "";
    if (!result.ok) return setProblem(t(`problems.${(result as { problem: string }).problem}` as "problems.failed"));
    notify({ message: t("added", { count: (result.data as { added: number }).added }), kind: "success" });
    router.refresh();
  };

  const busy = disabled || progress !== null;
  return (
    <div className="stack slides-import">
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("as")} />
        </span>
        <select
          value={as}
          disabled={busy}
          data-testid="slides-as"
          onChange={(e) => setAs(e.target.value as SlidesSceneType)}
        >
          {SLIDES_SCENE_TYPES.map((type) => (
            <option key={type} value={type}>
              {plain(t(`asTypes.${type}`))}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("choose")} />
        </span>
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          aria-label={plain(t("label"))}
          data-testid="slides-file"
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void send(file);
          }}
        />
      </label>
      <p className="muted small">
        <RichTextClient text={t("hint")} />
      </p>
      <SlidesStatus progress={progress} problem={problem} />
    </div>
  );
}

/** The sending's and then the pages' progress while the import runs, or why it was refused. */
function SlidesStatus({ progress, problem }: { progress: SlidesProgress | null; problem: string | null }) {
  const t = useTranslations("SceneEditor.slides");
  const plain = usePlainText();
  const percent = progress?.stage === "pages" ? Math.round((progress.page / progress.pages) * 100) : progress?.percent;
  const words = progress
    ? progress.stage === "upload"
      ? t("uploading", { percent: progress.percent })
      : t("rendering", { page: progress.page, pages: progress.pages })
    : "";
  return (
    <>
      {progress ? (
        <div className="row" role="status" data-testid="slides-progress">
          <progress max={100} value={percent} aria-label={plain(words)} />
          <RichTextClient text={words} />
        </div>
      ) : null}
      {problem ? (
        <p className="alert alert-error" role="alert" data-testid="slides-problem">
          <span>
            <RichTextClient text={problem} />
          </span>
        </p>
      ) : null}
    </>
  );
}
