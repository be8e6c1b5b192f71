import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { NavigationPending } from "@/platform/ui/layout/navigation-pending";
import { RichText } from "@/platform/ui/rich-text";
import { Spinner } from "@/platform/ui/spinner";

/**
 * No loading.tsx under /dashboard: a route-level Suspense boundary sends the shell with
 * status 200 before a page's access check, so notFound() could no longer give a 404.
 * Navigations show NavigationPending instead.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations("Navigation");
  return (
    <>
      {children}
      <NavigationPending>
        <Spinner size="small" />
        <RichText text={t("loading")} />
      </NavigationPending>
    </>
  );
}
