"use client";
import { useLocale } from "next-intl";
import { useCallback } from "react";
import { languageOfLocaleTag } from "@/platform/i18n/languages";
import { toPlainText } from "@/platform/richtext/plain";

/** For attributes (aria-label, title): a message's text without markup, in the current language. */
export function usePlainText(): (text: string) => string {
  const lang = languageOfLocaleTag(useLocale());
  return useCallback((text: string) => toPlainText(text, lang), [lang]);
}
