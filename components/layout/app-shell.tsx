import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { ReactNode } from "react";
import { homeOf } from "@/lib/auth/roles";
import type { Actor } from "@/lib/auth/session";
import { baseDisplayName, roleSuffixKey } from "@/lib/users/display-name";
import { Logo } from "@/components/ui/logo";
import { RichText } from "@/components/ui/rich-text";
import { LanguageSwitcher } from "./language-switcher";
import { SignOutButton } from "./sign-out-button";

/** The name shown in the top bar: nickname, else name, else 'guest', with the role suffix (SPEC.md §2). */
export async function DisplayName({ actor }: { actor: Pick<Actor, "nickname" | "name" | "role"> }) {
  const common = await getTranslations("Common");
  const roles = await getTranslations("Roles");
  const suffix = roleSuffixKey(actor.role);
  return (
    <>
      {baseDisplayName(actor) ?? <RichText text={common("guest")} />}
      {suffix ? <RichText text={roles(suffix)} /> : null}
    </>
  );
}

/** Each role's layout: top bar (logo → home, display name, language, sign-out) and the page. */
export async function AppShell({ actor, children }: { actor: Actor; children: ReactNode }) {
  return (
    <div className="app-shell" data-role={actor.role}>
      <header className="top-bar">
        <Link href={homeOf(actor.role)} className="top-bar-home">
          <Logo size="small" />
        </Link>
        <span className="top-bar-spacer" />
        <span className="top-bar-name" data-testid="display-name">
          <DisplayName actor={actor} />
        </span>
        <LanguageSwitcher />
        <SignOutButton />
      </header>
      <main className="page" id="main">
        {children}
      </main>
    </div>
  );
}
