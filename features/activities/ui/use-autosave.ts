"use client";
import { useCallback, useEffect, useRef, useState } from "react";

/** What the teacher sees of the autosave: nothing yet, 保存中…, 保存しました, 保存できませんでした (with a retry). */
export type AutosaveState = "idle" | "saving" | "saved" | "failed";
/** The result of one save: stored, refused in a way the form shows itself (someone else's change, answers arrived), or failed. */
export type SaveOutcome = "ok" | "refused" | "failed";

/** Quiet time after the last edit before the form saves by itself (features/activities/README.md "Activity editor"). */
export const AUTOSAVE_DELAY_MS = 1500;

/**
 * Saves `value` (the form's valid content as JSON, or null while it is invalid) by itself once it has
 * not changed for `delay` ms, or at once on `flush` (the form losing focus). Never when it is what was
 * last saved, while disabled (an answered scene, a refusal on screen), nor two saves at a time: an
 * edit made during a save is saved after it. `markSaved` records a save the form made itself.
 */
export function useAutosave({
  value,
  enabled,
  save,
  delay = AUTOSAVE_DELAY_MS,
}: {
  value: string | null;
  enabled: boolean;
  save: (value: string) => Promise<SaveOutcome>;
  delay?: number;
}) {
  const [state, setState] = useState<AutosaveState>("idle");
  // what was last saved: state for what the form shows, a ref for the saves in flight
  const [savedValue, setSavedValue] = useState<string | null>(value);
  const saved = useRef<string | null>(value);
  const latest = useRef({ value, enabled, save });
  useEffect(() => {
    latest.current = { value, enabled, save };
  });
  const busy = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const again = useRef<() => void>(() => {});

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const { value: now, enabled: on, save: run } = latest.current;
    if (!on || now === null || now === saved.current || busy.current) return;
    busy.current = true;
    setState("saving");
    const outcome = await run(now);
    busy.current = false;
    if (outcome === "ok") {
      saved.current = now;
      setSavedValue(now);
    }
    setState(outcome === "ok" ? "saved" : outcome === "failed" ? "failed" : "idle");
    // typed while it was saving: save that too, after the same quiet time
    if (outcome === "ok" && latest.current.value !== now) timer.current = setTimeout(() => again.current(), delay);
  }, [delay]);
  useEffect(() => {
    again.current = () => void flush();
  }, [flush]);

  useEffect(() => {
    if (!enabled || value === null || value === saved.current) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), delay);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [value, enabled, delay, flush]);

  const markSaved = useCallback((v: string) => {
    saved.current = v;
    setSavedValue(v);
    setState("saved");
  }, []);
  // 保存しました only while the form holds what was saved (an edit since, valid or not, is not saved yet)
  return { state: value !== savedValue && state === "saved" ? "idle" : state, flush, markSaved };
}
