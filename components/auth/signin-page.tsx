import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { isSigninErrorCode } from "@/lib/auth/errors";
import { homeOf } from "@/lib/auth/roles";
import { safeFromPath } from "@/lib/auth/schema";
import { getActor } from "@/lib/auth/session";
import { LanguageSwitcher } from "@/components/layout/language-switcher";
import { Logo } from "@/components/ui/logo";
import { RichText } from "@/components/ui/rich-text";
import { SigninForm } from "./signin-form";

type Params = Promise<Record<string, string | string[] | undefined>>;

/** /signin (and /): e-mail and password. A signed-in user goes to their home. */
export async function SigninPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const actor = await getActor();
  if (actor && actor !== "disabled") redirect(homeOf(actor.role));
  const t = await getTranslations("Auth");
  const error = isSigninErrorCode(params.error) ? params.error : null;
  return (
    <main className="signin-page">
      <div className="signin-top">
        <LanguageSwitcher />
      </div>
      <section className="card signin-card" aria-labelledby="signin-title">
        <Logo size="large" />
        <h1 id="signin-title">
          <RichText text={t("signinTitle")} />
        </h1>
        <p className="muted">
          <RichText text={t("signinLead")} />
        </p>
        <SigninForm from={safeFromPath(params.from)} initialError={error} />
      </section>
    </main>
  );
}
