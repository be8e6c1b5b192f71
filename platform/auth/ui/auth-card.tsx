import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/platform/ui/layout/language-switcher";
import { Logo } from "@/platform/ui/logo";

/** The frame of the signed-out pages: language switcher, logo, one card. */
export function AuthCard({ children, labelledBy }: { children: ReactNode; labelledBy?: string }) {
  return (
    <main className="signin-page">
      <div className="signin-top">
        <LanguageSwitcher signedOut />
      </div>
      <section className="card signin-card" aria-labelledby={labelledBy} aria-live="polite">
        <Logo size="large" />
        {children}
      </section>
    </main>
  );
}
