import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { RichText } from "@/platform/ui/rich-text";
import { AuthCard } from "./auth-card";
import { ForgotForm } from "./forgot-form";
import { ResetForm } from "./reset-form";

/** /auth/forgot: teachers and managers ask for a reset link by e-mail. */
export async function ForgotPage() {
  const t = await getTranslations("Reset");
  return (
    <AuthCard labelledBy="forgot-title">
      <h1 id="forgot-title">
        <RichText text={t("forgotTitle")} />
      </h1>
      <p className="muted">
        <RichText text={t("forgotLead")} />
      </p>
      <ForgotForm />
      <Link href="/signin">
        <RichText text={t("backToSignin")} />
      </Link>
    </AuthCard>
  );
}

type Params = Promise<Record<string, string | string[] | undefined>>;

/** /auth/reset?token=…: choose a new password (the token is checked when it is used). */
export async function ResetPage({ searchParams }: { searchParams: Params }) {
  const { token } = await searchParams;
  const t = await getTranslations("Reset");
  const te = await getTranslations("AuthErrors");
  return (
    <AuthCard labelledBy="reset-title">
      <h1 id="reset-title">
        <RichText text={t("resetTitle")} />
      </h1>
      {typeof token === "string" && token.length > 0 ? (
        <ResetForm token={token} />
      ) : (
        <p className="alert alert-error" role="alert" data-testid="reset-error" data-code="expiredActionCode">
          <span>
            <RichText text={te("expiredActionCode")} />
          </span>
        </p>
      )}
      <Link href="/signin">
        <RichText text={t("backToSignin")} />
      </Link>
    </AuthCard>
  );
}
