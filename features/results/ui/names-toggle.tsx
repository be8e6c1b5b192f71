"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useState } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** Hides the students' names inside (for projecting answers to the class); names are shown by default. */
export function NamesToggle({ children }: { children: ReactNode }) {
  const t = useTranslations("Results");
  const [hidden, setHidden] = useState(false);
  return (
    <div className="stack" data-hide-names={hidden ? "true" : "false"} data-testid="names-scope">
      <p>
        <button
          type="button"
          className="button button-small"
          aria-pressed={hidden}
          onClick={() => setHidden(!hidden)}
          data-testid="hide-names"
        >
          <RichTextClient text={hidden ? t("showNames") : t("hideNames")} />
        </button>
      </p>
      {children}
    </div>
  );
}
