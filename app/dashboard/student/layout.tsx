import type { ReactNode } from "react";
import { requireRole } from "@/platform/auth/session";
import { AppShell } from "@/platform/ui/layout/app-shell";
import { ClientMessages, CLIENT_NAMESPACES } from "@/platform/ui/layout/client-messages";

export default async function StudentLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("student");
  return (
    <ClientMessages namespaces={[...CLIENT_NAMESPACES.base, ...CLIENT_NAMESPACES.student]}>
      <AppShell actor={actor}>{children}</AppShell>
    </ClientMessages>
  );
}
