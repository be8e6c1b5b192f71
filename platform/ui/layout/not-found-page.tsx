import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { RichText } from "@/platform/ui/rich-text";

/** docs/requirements.md §2: a title, 'page not found or no access', and a button back to home (404). */
export async function NotFoundPage() {
  const t = await getTranslations("Errors");
  return (
    <main className="signin-page">
      <section className="card signin-card" aria-labelledby="error-title" data-testid="error-page">
        <h1 id="error-title">
          <RichText text={t("title")} />
        </h1>
        <p>
          <RichText text={t("notFound")} />
        </p>
        <Link href="/dashboard" className="button button-primary">
          <RichText text={t("backHome")} />
        </Link>
      </section>
    </main>
  );
}
