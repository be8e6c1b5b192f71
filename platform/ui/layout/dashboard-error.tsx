"use client";
import { TryAgain } from "./try-again";

/** When the signed-in user's data cannot be read: 'failed to fetch user data', retry, or sign in again. */
export function DashboardError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <TryAgain error={error} retry={retry} title="fetchUserFailed" signInAgain />;
}
