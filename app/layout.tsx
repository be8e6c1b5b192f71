import type { Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ClientMessages, CLIENT_NAMESPACES } from "@/platform/ui/layout/client-messages";
import { SHARED_CLIENT_COMPONENTS } from "@/platform/ui/layout/shared-client";
import { NotificationsProvider } from "@/platform/ui/notifications";
import { rootMetadata } from "@/platform/i18n/metadata";
import "@/platform/ui/katex/katex.css"; // KaTeX's, its two everyday fonts split by unicode-range (scripts/make-katex-fonts.ts)
import "./globals.css";

export const generateMetadata = rootMetadata;

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#1f7a4d" };

/** <html lang="ja"> in all three display languages; the catalogue comes from the cookie. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page renders per request, so Next can put the CSP nonce (proxy.ts) on its scripts
  await headers();
  // referenced, so the shared client components' code is loaded with this layout (platform/ui/layout/shared-client.ts)
  if (SHARED_CLIENT_COMPONENTS.length === 0) throw new Error("no shared client components");
  return (
    <html lang="ja">
      <body>
        <ClientMessages namespaces={CLIENT_NAMESPACES.base}>
          <NotificationsProvider>{children}</NotificationsProvider>
        </ClientMessages>
      </body>
    </html>
  );
}
