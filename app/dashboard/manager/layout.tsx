import type { ReactNode } from "react";
import { requireRole } from "@/lib/auth/session";
import { AppShell } from "@/components/layout/app-shell";
import { ClientMessages } from "@/components/layout/client-messages";

export default async function ManagerLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("manager");
  return (
    <ClientMessages namespaces={"all"}>
      <AppShell actor={actor}>{children}</AppShell>
    </ClientMessages>
  );
}
