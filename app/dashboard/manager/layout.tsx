import type { ReactNode } from "react";
import { requireRole } from "@/lib/auth/session";
import { AppShell } from "@/components/layout/app-shell";

export default async function ManagerLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("manager");
  return <AppShell actor={actor}>{children}</AppShell>;
}
