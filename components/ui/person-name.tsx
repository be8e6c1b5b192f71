"use client";
import { useLocale } from "next-intl";
import { languageOfLocaleTag } from "@/lib/i18n/languages";
import type { ShownName } from "@/lib/users/person-name";

/**
 * A person's or school's name by display language: plain; with its reading as
 * ruby; or the reading alone in kana mode. Names are data, never markup.
 */
export function PersonName({ name }: { name: ShownName }) {
  const lang = languageOfLocaleTag(useLocale());
  if (!name.reading || lang === "ja") return <>{name.base}</>;
  if (lang === "ja-kana") return <>{name.reading}</>;
  return (
    <ruby>
      {name.base}
      <rp>(</rp>
      <rt>{name.reading}</rt>
      <rp>)</rp>
    </ruby>
  );
}
