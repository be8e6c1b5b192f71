"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the page (no reload) when the school's activities change mode
 * or state: the first message is the current state; every later one that
 * differs means something changed. Silent when the stream is not available
 * (the page still works; it updates on the next visit).
 */
export function HomeRefresh() {
  const router = useRouter();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/v1/live/school/events");
    let first = true;
    source.addEventListener("state", () => {
      if (first) {
        first = false;
        return;
      }
      router.refresh();
    });
    return () => source.close();
  }, [router]);
  return null;
}
