"use client";
import { useLocale } from "next-intl";
import { Fragment } from "react";
import { languageOfLocaleTag } from "@/platform/i18n/languages";
import { rubyParts, type ShownName } from "@/platform/names/person-name";

/**
 * A person's or school's name by display language: plain; with its reading as
 * ruby, one per part where name and reading split alike (山田(やまだ) 花子(はなこ));
 * or the reading alone in kana mode. Names are data, never markup.
 */
export function PersonName({ name }: { name: ShownName }) {
  const lang = languageOfLocaleTag(useLocale());
  if (!name.reading || lang === "ja") return <>{name.base}</>;
  if (lang === "ja-kana") return <>{name.reading}</>;
  return (
    <>
      {rubyParts(name).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? " " : null}
          {part.reading ? (
            <ruby>
              {part.base}
              <rp>(</rp>
              <rt>{part.reading}</rt>
              <rp>)</rp>
            </ruby>
          ) : (
            part.base
          )}
        </Fragment>
      ))}
    </>
  );
}
