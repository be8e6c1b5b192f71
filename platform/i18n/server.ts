import "server-only";
import { getLocale } from "next-intl/server";
import { toPlainText } from "@/platform/richtext/plain";
import { languageOfLocaleTag, type DisplayLanguage } from "./languages";

export async function getDisplayLanguage(): Promise<DisplayLanguage> {
  return languageOfLocaleTag(await getLocale());
}

/** For attributes and <title>: a message's text without markup, in the current language. */
export async function getPlainText(): Promise<(text: string) => string> {
  const lang = await getDisplayLanguage();
  return (text: string) => toPlainText(text, lang);
}
