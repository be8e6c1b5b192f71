import "server-only";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { Messages } from "./messages";
import { getPlainText } from "./server";

export type ScreenTitle = Exclude<keyof Messages["Metadata"], "description">;

/**
 * A page's `generateMetadata`: its title in the current display language as
 * plain text (a <title> shows no ruby), e.g. "生徒の管理 | まなびや". Absolute,
 * since a layout's title template skips a page of its own segment (app/page.tsx).
 */
export function screenTitle(key: ScreenTitle): () => Promise<Metadata> {
  return async () => {
    const [common, t, plain] = await Promise.all([
      getTranslations("Common"),
      getTranslations("Metadata"),
      getPlainText(),
    ]);
    return { title: { absolute: `${plain(t(key))} | ${plain(common("appName"))}` } };
  };
}

/** The site-wide default title (pages without one of their own) and description, for the root layout. */
export async function rootMetadata(): Promise<Metadata> {
  const [common, t, plain] = await Promise.all([
    getTranslations("Common"),
    getTranslations("Metadata"),
    getPlainText(),
  ]);
  const app = plain(common("appName"));
  return {
    title: app,
    description: plain(t("description")),
    applicationName: app,
    appleWebApp: { capable: true, title: app, statusBarStyle: "default" },
  };
}
