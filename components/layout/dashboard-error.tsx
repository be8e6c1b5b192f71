"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useEffect } from "react";
import { RichTextClient } from "@/components/ui/rich-text-client";

/** When the signed-in user's data cannot be read: 'failed to fetch user data', retry, or sign in again. */
export function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("Errors");
  useEffect(() => {
    console.error("dashboard failed to render", error.digest ?? error.message);
  }, [error]);
  return (
    <main className="signin-page">
      <section className="card signin-card" role="alert" data-testid="dashboard-error">
        <h1>
          <RichTextClient text={t("fetchUserFailed")} />
        </h1>
        <div className="row">
          <button type="button" className="button button-primary" onClick={reset}>
            <RichTextClient text={t("retry")} />
          </button>
          <Link href="/signin" className="button">
            <RichTextClient text={t("signInAgain")} />
          </Link>
        </div>
      </section>
    </main>
  );
}
