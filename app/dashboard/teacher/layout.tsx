import type { ReactNode } from "react";
import { requireRole } from "@/lib/auth/session";
import { AppShell } from "@/components/layout/app-shell";

export default async function TeacherLayout({ children }: { children: ReactNode }) {
  const actor = await requireRole("teacher");
  return <AppShell actor={actor}>{children}</AppShell>;
}
