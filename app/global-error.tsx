"use client";
import { NextIntlClientProvider } from "next-intl";
import { useEffect, useState } from "react";
import { AUTO_RETRY_MS, TryAgain } from "@/platform/ui/layout/try-again";
import { LANGUAGE_COOKIE, localeTagOf, toDisplayLanguage } from "@/platform/i18n/languages";
import "./globals.css";

type Messages = Record<string, Record<string, string>>;
const catalogues = {
  ja: () => import("@/messages/ja.json"),
  "ja-ruby": () => import("@/messages/ja-ruby.json"),
  "ja-kana": () => import("@/messages/ja-kana.json"),
};

/**
 * When the root layout itself failed: its own document, the user's catalogue loaded only now
 * (a chunk of its own, never on a page that works), then the same "try again" page as elsewhere.
 * Until the catalogue has come (or when it cannot), the page just tries again by itself.
 */
export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const lang = toDisplayLanguage(
    typeof document === "undefined"
      ? undefined
      : new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1],
  );
  const [messages, setMessages] = useState<Messages | null>(null);
  useEffect(() => {
    catalogues[lang]().then(
      (m) => setMessages({ Errors: m.default.Errors }),
      () => undefined,
    );
    const timer = setTimeout(retry, AUTO_RETRY_MS);
    return () => clearTimeout(timer);
  }, [lang, retry]);
  return (
    <html lang="ja">
      <body>
        {messages ? (
          <NextIntlClientProvider locale={localeTagOf(lang)} messages={messages}>
            <TryAgain error={error} retry={retry} title="unavailable" />
          </NextIntlClientProvider>
        ) : null}
      </body>
    </html>
  );
}
