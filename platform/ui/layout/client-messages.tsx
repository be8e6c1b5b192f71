import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";

/**
 * The message namespaces client components use, by where they render. Every
 * page sends the ones it may need with its HTML, so a student's page (on a
 * cheap tablet, a slow shared network) carries only the shell's and the
 * player's, not the teachers' screens (tests/e2e/access.spec.ts checks
 * that no page misses one).
 */
export const CLIENT_NAMESPACES = {
  /** the shell, sign-in, password reset, QR sign-in, error pages */
  base: ["Common", "Roles", "Language", "Nav", "Errors", "Auth", "AuthErrors", "CodeSignin", "Reset"],
  student: ["Play", "Scenes", "Game"],
} as const;

/** Replaces the messages client components see below it with `namespaces` only (or all of them). */
export async function ClientMessages({
  namespaces,
  children,
}: {
  namespaces: readonly string[] | "all";
  children: ReactNode;
}) {
  const all = await getMessages();
  const messages =
    namespaces === "all"
      ? all
      : Object.fromEntries(namespaces.filter((n) => n in all).map((n) => [n, all[n as keyof typeof all]]));
  return <NextIntlClientProvider messages={messages}>{children}</NextIntlClientProvider>;
}
