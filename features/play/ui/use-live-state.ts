"use client";
import { useEffect, useRef, useState } from "react";
import { keepEqual } from "@/features/play/shared/keep-equal";

export interface Ordered {
  sessionStartedAt: number;
  version: number;
}

/** A state older than the one shown is ignored: a client never goes backwards. */
export function isNotOlder(next: Ordered, current: Ordered): boolean {
  return (
    next.sessionStartedAt > current.sessionStartedAt ||
    (next.sessionStartedAt === current.sessionStartedAt && next.version >= current.version)
  );
}

const WATCHDOG_MS = 35_000;
const POLL_MS = 2_000;

/**
 * Follows a live state: server-sent events first; when the stream cannot be
 * held (errors before any message, or silence longer than two heartbeats, as
 * behind a buffering proxy) it falls back to polling the JSON state. `?live=poll`
 * in the page URL forces polling.
 */
export function useLiveState<T extends Ordered>(
  base: string,
  initial: T,
  query = "",
): { state: T; transport: "stream" | "polling" } {
  const [state, setState] = useState<T>(initial);
  const [transport, setTransport] = useState<"stream" | "polling">("stream");
  const current = useRef(initial);

  useEffect(() => {
    let closed = false;
    let source: EventSource | null = null;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let poller: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const accept = (next: T) => {
      if (!next || !isNotOlder(next, current.current)) return;
      // the parts that did not change stay the same objects: the components showing them skip their render
      const kept = keepEqual(current.current, next);
      current.current = kept;
      setState(kept);
    };
    const poll = async () => {
      if (closed) return;
      try {
        const res = await fetch(`${base}/state${query}`, { cache: "no-store" });
        if (res.ok) accept((await res.json()) as T);
      } catch {
        // offline: try again
      }
      if (!closed) poller = setTimeout(() => void poll(), POLL_MS);
    };
    const fallBack = () => {
      source?.close();
      source = null;
      clearTimeout(watchdog);
      if (closed || poller) return;
      setTransport("polling");
      void poll();
    };
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(fallBack, WATCHDOG_MS);
    };
    if (new URLSearchParams(window.location.search).get("live") === "poll" || typeof EventSource === "undefined") {
      fallBack();
    } else {
      source = new EventSource(`${base}/events${query}`);
      arm();
      source.addEventListener("state", (e) => {
        failures = 0;
        arm();
        accept(JSON.parse((e as MessageEvent<string>).data) as T);
      });
      source.addEventListener("ping", () => {
        failures = 0;
        arm();
      });
      source.onerror = () => {
        failures++;
        if (failures >= 3 || source?.readyState === EventSource.CLOSED) fallBack();
      };
    }
    return () => {
      closed = true;
      source?.close();
      clearTimeout(watchdog);
      clearTimeout(poller);
    };
  }, [base, query]);

  return { state, transport };
}
