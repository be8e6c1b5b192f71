import type { Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ClientMessages, CLIENT_NAMESPACES } from "@/components/layout/client-messages";
import { SHARED_CLIENT_COMPONENTS } from "@/components/layout/shared-client";
import { NotificationsProvider } from "@/components/ui/notifications";
import { rootMetadata } from "@/lib/i18n/metadata";
import "@/components/ui/katex/katex.css"; // KaTeX's, its two everyday fonts split by unicode-range (scripts/make-katex-fonts.ts)
import "./globals.css";

export const generateMetadata = rootMetadata;

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#1f7a4d" };

/** <html lang="ja"> in all three display languages; the catalogue comes from the cookie. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page renders per request, so Next can put the CSP nonce (proxy.ts) on its scripts
  await headers();
  // referenced, so the shared client components' code is loaded with this layout (components/layout/shared-client.ts)
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
