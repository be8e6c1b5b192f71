import { createTranslator } from "use-intl/core";
import { localeTagOf, type DisplayLanguage } from "@/platform/i18n/languages";
import { loadMessages } from "@/platform/i18n/messages";
import { toPlainText } from "@/platform/richtext/plain";
import type { SceneType } from "@/features/scenes/shared/schema";

export type CsvColumn = keyof ReturnType<typeof loadMessages>["ResultsCsv"];

/**
 * The words of a CSV in the user's display language, as plain text (the
 * furigana catalogue's readings dropped, the kana one as it is): headers,
 * scene types, modes, roles and the file name.
 */
export function csvTexts(lang: DisplayLanguage) {
  const messages = loadMessages(lang);
  const locale = localeTagOf(lang);
  const t = createTranslator({ locale, messages, namespace: "ResultsCsv" });
  const types = createTranslator({ locale, messages, namespace: "Edit.types" });
  const activities = createTranslator({ locale, messages, namespace: "Activities" });
  const results = createTranslator({ locale, messages, namespace: "Results" });
  const plain = (text: string) => toPlainText(text, lang);
  return {
    plain,
    column: (key: CsvColumn) => plain(t(key, { title: "", count: 0 })),
    result: (key: "assigned" | "started" | "finished" | "inGuide" | "inSelf") => plain(results(key)),
    type: (type: SceneType) => plain(types(type)),
    /** A drawing answer's cell: that a drawing was made and its stroke count, never the strokes. */
    drawing: (strokes: number) => plain(t("drawing", { count: strokes })),
    /** A fill-in-the-blanks blank's name (1 for the first). */
    blank: (n: number) => plain(t("blank", { count: n })),
    mode: (mode: string) =>
      mode === "guide" ? plain(activities("modeGuide")) : mode === "self" ? plain(activities("modeSelf")) : mode,
    role: (role: string) =>
      role === "student" ? plain(t("roleStudent")) : role === "teacher" ? plain(t("roleTeacher")) : role,
    /** A file name (without .csv or .json) from the activity's title: no path or reserved characters, not too long. */
    fileName: (kind: "fileResults" | "fileResponses" | "filePseudonymous" | "fileActivity", title: string) => {
      const safe = Array.from(plain(title).replace(/[\\/:*?"<>|\p{Cc}\s]+/gu, "_"))
        .slice(0, 60)
        .join("");
      return plain(t(kind, { title: safe || "activity" }));
    },
  };
}
