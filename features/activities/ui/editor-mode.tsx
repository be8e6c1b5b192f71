"use client";
import { useTranslations } from "next-intl";
import { useSyncExternalStore } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** How the scene form's text fields are edited: the markup source or the visual editor. */
export type EditorMode = "markup" | "visual";

/** The teacher's choice, kept in this browser's localStorage (every form follows it). */
const STORAGE_KEY = "manabiya-editor-mode";
const CHANGED = "manabiya-editor-mode-changed";

function readMode(): EditorMode {
  try {
    return localStorage.getItem(STORAGE_KEY) === "visual" ? "visual" : "markup";
  } catch {
    return "markup";
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** The remembered mode (markup on the server and until the page is hydrated). */
export const useEditorMode = (): EditorMode => useSyncExternalStore(subscribe, readMode, () => "markup");

function chooseMode(mode: EditorMode) {
  try {
    localStorage.setItem(STORAGE_KEY, mode);
  } catch {
    // storage refused (private mode): the choice holds until the page is left
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** The two modes as a pair of radio buttons above the scene's fields. */
export function EditorModeSwitch() {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  const mode = useEditorMode();
  return (
    <fieldset className="editor-mode row" data-testid="editor-mode">
      <legend className="visually-hidden">{plain(t("mode"))}</legend>
      <span className="muted" aria-hidden="true">
        <RichTextClient text={t("mode")} />
      </span>
      {(["markup", "visual"] as const).map((m) => (
        <label key={m} className="editor-mode-option">
          <input
            type="radio"
            name="editor-mode"
            value={m}
            checked={mode === m}
            onChange={() => chooseMode(m)}
            data-testid={`editor-mode-${m}`}
          />
          <RichTextClient text={t(m === "markup" ? "modeMarkup" : "modeVisual")} />
        </label>
      ))}
    </fieldset>
  );
}
