"use client";
import { useRef, useState } from "react";
import type { Draft } from "./scene-content";

const LIMIT = 50;
/** Keystrokes in one field closer together than this are one step of the history. */
const GROUP_MS = 1000;

/**
 * The scene form's draft with its undo history: 「元に戻す」 steps back one edit (a run of typing in
 * one field, a toolbar action, furigana applied, an option added or removed), up to 50 steps.
 */
export function useDraftHistory(initial: Draft) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [past, setPast] = useState<Draft[]>([]);
  const last = useRef<{ key: string; at: number } | null>(null);
  /** `typedIn`: the field the teacher is typing in (grouped); absent for an edit that is a step of its own. */
  const change = (next: (d: Draft) => Draft, typedIn?: string) => {
    const now = Date.now();
    const grouped = typedIn !== undefined && last.current?.key === typedIn && now - last.current.at < GROUP_MS;
    last.current = typedIn === undefined ? null : { key: typedIn, at: now };
    if (!grouped) setPast((p) => [...p.slice(-(LIMIT - 1)), draft]);
    setDraft(next);
  };
  const undo = () => {
    const previous = past[past.length - 1];
    if (!previous) return;
    last.current = null;
    setPast(past.slice(0, -1));
    setDraft(previous);
  };
  return { draft, change, undo, canUndo: past.length > 0 };
}
