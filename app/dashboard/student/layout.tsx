import type { ReactNode } from "react";
import { requireRole } from "@/lib/auth/session";
import { AppShell } from "@/components/layout/app-shell";
import { ClientMessages, CLIENT_NAMESPACES } from "@/components/layout/client-messages";

export default async function StudentLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("student");
  return (
    <ClientMessages namespaces={[...CLIENT_NAMESPACES.base, ...CLIENT_NAMESPACES.student]}>
      <AppShell actor={actor}>{children}</AppShell>
    </ClientMessages>
  );
}
