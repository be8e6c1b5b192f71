"use client";
import { TryAgain } from "@/platform/ui/layout/try-again";

/** Any page that failed to render (the dashboard has its own: app/dashboard/error.tsx). */
export default function AppError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <TryAgain error={error} retry={retry} title="unavailable" />;
}
