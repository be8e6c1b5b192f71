"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { isKana } from "@/features/activities/shared/furigana-align";
import { isValidTex, renderKatex } from "@/platform/richtext/katex-render";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** A modal form opened at once, outside the scene's own form (forms do not nest); Escape or 「やめる」 closes it. */
function MarkupDialog({
  title,
  testId,
  onSubmit,
  onClose,
  canSubmit,
  children,
}: {
  title: string;
  testId: string;
  onSubmit: () => void;
  onClose: () => void;
  canSubmit: boolean;
  children: ReactNode;
}) {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return createPortal(
    <dialog ref={ref} className="dialog" aria-label={plain(title)} data-testid={testId} onClose={onClose}>
      {/* a portal's events still bubble to its React parents: without stopPropagation this
          submit would also submit the scene form the dialog was opened from (a save per insert) */}
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          e.stopPropagation();
          onSubmit();
        }}
      >
        <h2>
          <RichTextClient text={title} />
        </h2>
        {children}
        <div className="row">
          <button
            type="submit"
            className="button button-primary"
            disabled={!canSubmit}
            data-testid={`${testId}-insert`}
          >
            <RichTextClient text={t("insert")} />
          </button>
          <button type="button" className="button" onClick={() => ref.current?.close()}>
            <RichTextClient text={t("cancel")} />
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}

/** A reading is kana (hiragana, katakana, ー), mono-ruby's ・ between the characters' readings allowed. */
const isKanaReading = (reading: string) => isKana(reading.trim().replaceAll("・", ""));

/**
 * The reading of the selected `base`; a reading that is not kana is refused with its own message,
 * and `onInsert` answers whether the ruby could be written there.
 */
export function RubyDialog({
  base,
  onInsert,
  onClose,
}: {
  base: string;
  onInsert: (reading: string) => boolean;
  onClose: () => void;
}) {
  const t = useTranslations("Toolbar");
  const id = useId();
  const [reading, setReading] = useState("");
  const [invalid, setInvalid] = useState<"rubyInvalid" | "rubyNotKana" | null>(null);
  return (
    <MarkupDialog
      title={t("rubyTitle", { base })}
      testId="ruby-dialog"
      canSubmit
      onClose={onClose}
      onSubmit={() => {
        if (reading.trim() !== "" && !isKanaReading(reading)) setInvalid("rubyNotKana");
        else if (!onInsert(reading)) setInvalid("rubyInvalid");
      }}
    >
      <label className="field" htmlFor={id}>
        <span className="field-label">
          <RichTextClient text={t("rubyReading")} />
        </span>
      </label>
      <input
        id={id}
        value={reading}
        maxLength={100}
        autoFocus
        lang="ja"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => {
          setReading(e.target.value);
          setInvalid(null);
        }}
        data-testid="ruby-reading"
      />
      {invalid ? (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid="ruby-invalid">
          <RichTextClient text={t(invalid)} />
        </p>
      ) : null}
    </MarkupDialog>
  );
}

/** TeX with its live KaTeX rendering; TeX the renderer cannot read is shown as an error and cannot be inserted. */
export function MathDialog({
  initial,
  onInsert,
  onClose,
}: {
  initial: string;
  onInsert: (tex: string) => void;
  onClose: () => void;
}) {
  const t = useTranslations("Toolbar");
  const id = useId();
  const [tex, setTex] = useState(initial);
  const valid = isValidTex(tex);
  const blank = tex.trim() === "";
  return (
    <MarkupDialog
      title={t("mathTitle")}
      testId="math-dialog"
      canSubmit={valid}
      onClose={onClose}
      onSubmit={() => {
        if (valid) onInsert(tex.trim());
      }}
    >
      <label className="field" htmlFor={id}>
        <span className="field-label">
          <RichTextClient text={t("mathTex")} />
        </span>
      </label>
      <input
        id={id}
        value={tex}
        maxLength={1000}
        autoFocus
        spellCheck={false}
        autoComplete="off"
        className="math-tex"
        data-testid="math-tex"
        aria-invalid={!valid && !blank ? true : undefined}
        aria-describedby={`${id}-preview`}
        onChange={(e) => setTex(e.target.value)}
      />
      <div id={`${id}-preview`} className="math-preview" aria-live="polite" data-testid="math-preview">
        {blank ? (
          <p className="muted">
            <RichTextClient text={t("mathEmpty")} />
          </p>
        ) : valid ? (
          renderKatex(tex, "math")
        ) : (
          <p className="field-error" data-testid="math-invalid">
            <RichTextClient text={t("mathInvalid")} />
          </p>
        )}
      </div>
    </MarkupDialog>
  );
}
