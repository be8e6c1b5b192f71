"use client";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** While the page shows, it tries again by itself this often (a tablet left on it recovers when the server does). */
export const AUTO_RETRY_MS = 15_000;

/**
 * The "try again" page of the error boundaries (app/error.tsx, app/dashboard/error.tsx): the
 * server could not build the page (most often: the database is away, and its pools give up
 * within seconds: platform/db/pools.ts). `retry` fetches the page again from the server.
 */
export function TryAgain({
  error,
  retry,
  title,
  signInAgain = false,
}: {
  error: Error & { digest?: string };
  retry: () => void;
  title: "unavailable" | "fetchUserFailed";
  signInAgain?: boolean;
}) {
  const t = useTranslations("Errors");
  useEffect(() => {
    console.error("page failed to render", error.digest ?? error.message);
  }, [error]);
  useEffect(() => {
    const timer = setInterval(retry, AUTO_RETRY_MS);
    return () => clearInterval(timer);
  }, [retry]);
  return (
    <main className="signin-page">
      <section className="card signin-card" role="alert" data-testid="try-again">
        <h1>
          <RichTextClient text={t(title)} />
        </h1>
        <p>
          <RichTextClient text={t("tryAgainLater")} />
        </p>
        <div className="row">
          <button type="button" className="button button-primary" onClick={retry} data-testid="try-again-button">
            <RichTextClient text={t("retry")} />
          </button>
          {signInAgain ? (
            // a plain link: the error boundaries load on every page, and next/link would put a
            // copy of its code in each of their chunks; a page load is the right way out of an error anyway
            <a href="/signin" className="button">
              <RichTextClient text={t("signInAgain")} />
            </a>
          ) : null}
        </div>
      </section>
    </main>
  );
}
