import type { ReactNode } from "react";
import { requireRole } from "@/lib/auth/session";
import { AppShell } from "@/components/layout/app-shell";

export default async function StudentLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("student");
  return <AppShell actor={actor}>{children}</AppShell>;
}
