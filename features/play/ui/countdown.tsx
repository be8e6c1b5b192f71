"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { LiveState } from "@/features/play/server/state-queries";
import { RichTextClient } from "@/platform/ui/rich-text-client";

type Timer = LiveState["timer"];

/**
 * Seconds left on a live scene's countdown, counted on this device from the server's clock in the
 * state (a tablet whose clock is wrong still ends with the class); null without a timer.
 */
export function useCountdown(timer: Timer): { left: number | null; over: boolean } {
  const [tick, setTick] = useState<{ of: NonNullable<Timer>; leftMs: number } | null>(null);
  useEffect(() => {
    if (!timer) return;
    // the end on this device's clock, fixed when the state arrives
    const end = Date.now() + (timer.endsAt - timer.now);
    const update = () => {
      const leftMs = end - Date.now();
      setTick({ of: timer, leftMs });
      if (leftMs <= 0) clearInterval(every);
    };
    const first = setTimeout(update, 0);
    const every = setInterval(update, 250);
    return () => {
      clearTimeout(first);
      clearInterval(every);
    };
  }, [timer]);
  if (!timer) return { left: null, over: false };
  const leftMs = tick?.of === timer ? tick.leftMs : timer.endsAt - timer.now;
  const left = Math.max(0, Math.ceil(leftMs / 1000));
  return { left, over: left === 0 };
}

/** Seconds as m:ss. */
export const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/** The countdown as the class and the teacher see it: m:ss, then "time is up" (and that answers closed). */
export function Countdown({ timer, left, over }: { timer: NonNullable<Timer>; left: number; over: boolean }) {
  const t = useTranslations("Play");
  return (
    <p
      className={over ? "timer timer-over" : "timer"}
      role="timer"
      data-testid="timer"
      data-state={over ? "over" : "running"}
    >
      <RichTextClient
        text={over ? (timer.locks ? t("timeUpLocked") : t("timeUp")) : t("timeLeft", { time: clock(left) })}
      />
    </p>
  );
}
