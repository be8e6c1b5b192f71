import type { ReactNode } from "react";
import { requireRole } from "@/platform/auth/session";
import { SecondFactorReminder } from "@/platform/auth/ui/second-factor-reminder";
import { AppShell } from "@/platform/ui/layout/app-shell";
import { ClientMessages } from "@/platform/ui/layout/client-messages";

export default async function TeacherLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("teacher");
  return (
    <ClientMessages namespaces={"all"}>
      <AppShell actor={actor}>
        <SecondFactorReminder userId={actor.id} role={actor.role} />
        {children}
      </AppShell>
    </ClientMessages>
  );
}
