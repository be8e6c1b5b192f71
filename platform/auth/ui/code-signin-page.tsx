import { cookies } from "next/headers";
import { PENDING_CODE_COOKIE } from "@/platform/auth/cookies";
import { isWellFormedCode } from "@/platform/auth/signin-code-crypto";
import { LanguageSwitcher } from "@/platform/ui/layout/language-switcher";
import { Logo } from "@/platform/ui/logo";
import { CodeSignin } from "./code-signin";

/**
 * /auth/auth-with-code?code=…: the URL printed as a QR code on the sign-in
 * sheet. proxy.ts moves the code into a short-lived cookie and comes back here
 * without it; the sign-in itself is a POST made by the page's script, so link
 * previewers and prefetchers never sign anybody in.
 */
export async function CodeSigninPage() {
  const code = (await cookies()).get(PENDING_CODE_COOKIE)?.value;
  const valid = typeof code === "string" && isWellFormedCode(code);
  return (
    <main className="signin-page">
      <div className="signin-top">
        <LanguageSwitcher signedOut />
      </div>
      <section className="card signin-card" aria-live="polite">
        <Logo size="large" />
        <CodeSignin pendingValid={valid} />
      </section>
    </main>
  );
}
