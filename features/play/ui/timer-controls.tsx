"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { ActionResult } from "@/platform/errors";
import { setTimerAction } from "@/features/play/server/actions";
import { TIMER_MAX_SECONDS, TIMER_MIN_SECONDS, TIMER_PRESETS } from "@/features/play/shared/schema";
import type { LiveState } from "@/features/play/server/state-queries";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { clock, Countdown, useCountdown } from "./countdown";

/**
 * The guide screen's countdown for the current scene: presets or a number of seconds, closing answers at zero or not;
 * stopped while it runs, and once it has closed the answers, "締め切りを解除" (which ends it and opens them again).
 */
export function TimerControls({
  timer,
  guideRef,
  pending,
  run,
}: {
  timer: LiveState["timer"];
  guideRef: { activityId: string; schoolId?: string };
  pending: boolean;
  run: (action: () => Promise<ActionResult<null>>) => void;
}) {
  const t = useTranslations("Play");
  const plain = usePlainText();
  const id = useId();
  const [seconds, setSeconds] = useState("60");
  const [locks, setLocks] = useState(false);
  const { left, over } = useCountdown(timer);
  const value = Number(seconds);
  const valid = Number.isInteger(value) && value >= TIMER_MIN_SECONDS && value <= TIMER_MAX_SECONDS;

  if (timer && left !== null) {
    // at zero of a countdown that closed the answers, the way to open them again (the countdown goes with it)
    const closed = over && timer.locks;
    return (
      <div className="row wrap guide-bar timer-controls">
        <Countdown timer={timer} left={left} over={over} />
        <button
          type="button"
          className="button button-small"
          disabled={pending}
          data-testid={closed ? "timer-unlock" : "timer-stop"}
          onClick={() => run(() => setTimerAction({ ...guideRef, seconds: null }))}
        >
          <RichTextClient text={closed ? t("unlock") : t("timerStop")} />
        </button>
      </div>
    );
  }
  return (
    <form
      className="row wrap guide-bar timer-controls"
      aria-label={plain(t("timerTitle"))}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) run(() => setTimerAction({ ...guideRef, seconds: value, locks }));
      }}
    >
      <TimerPresets value={value} onPick={(p) => setSeconds(String(p))} />
      <label className="field field-inline" htmlFor={`${id}-s`}>
        <RichTextClient text={t("timerSeconds", { min: TIMER_MIN_SECONDS, max: TIMER_MAX_SECONDS })} />
        <input
          id={`${id}-s`}
          type="number"
          inputMode="numeric"
          min={TIMER_MIN_SECONDS}
          max={TIMER_MAX_SECONDS}
          value={seconds}
          className="timer-seconds"
          aria-invalid={!valid || undefined}
          onChange={(e) => setSeconds(e.target.value)}
          data-testid="timer-seconds"
        />
      </label>
      <label className="field field-inline">
        <input type="checkbox" checked={locks} onChange={(e) => setLocks(e.target.checked)} data-testid="timer-locks" />
        <RichTextClient text={t("timerLocks")} />
      </label>
      <button
        type="submit"
        className="button button-small button-primary"
        disabled={pending || !valid}
        data-testid="timer-start"
      >
        <RichTextClient text={t("timerStart")} />
      </button>
    </form>
  );
}

/** The preset durations (the one chosen is pressed). */
function TimerPresets({ value, onPick }: { value: number; onPick: (seconds: number) => void }) {
  const t = useTranslations("Play");
  const plain = usePlainText();
  return (
    <span className="row" role="group" aria-label={plain(t("timerPresets"))}>
      {TIMER_PRESETS.map((p) => (
        <button
          key={p}
          type="button"
          className="button button-small"
          aria-pressed={value === p}
          onClick={() => onPick(p)}
          data-testid={`timer-preset-${p}`}
        >
          {clock(p)}
        </button>
      ))}
    </span>
  );
}
