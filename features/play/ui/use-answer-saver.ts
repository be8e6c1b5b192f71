"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SceneAnswer } from "@/features/scenes/ui/types";
import { dequeue, enqueue, knownRevisions, newKey, type QueuedAnswer, queued, retryDelay, send } from "./answer-queue";

/**
 * What happened to the answers. `sceneIds`: the scenes whose answers this
 * saving/saved is about (a scene shows only its own: features/play/ui/save-status.tsx);
 * `recovered`: this saved ends a "not saved yet" (queued, signed out, failed) shown before;
 * `replaced`: a save was not stored because the server holds a newer answer (another device's),
 * which the scenes `sceneIds` now show.
 */
export type SaveStatus =
  | { kind: "idle" }
  | { kind: "saving"; sceneIds?: string[] }
  | { kind: "saved"; sceneIds?: string[]; recovered?: boolean }
  | { kind: "replaced"; sceneIds: string[] }
  | { kind: "queued" }
  | { kind: "signedOut" }
  | { kind: "failed"; reason: string; sceneId?: string };

export interface StoredAnswer {
  /** null: an answer to an earlier version of the scene, shown as not answered (its revision still counts). */
  answer: SceneAnswer | null;
  revision: number;
}

const DEBOUNCE_MS = 800;

/** The highest revision of the answer stored or queued from this device: a new edit is numbered above it. */
function latestOnDevice(userId: string, activityId: string, sceneId: string): number {
  const waiting = queued(userId, activityId)
    .filter((q) => q.sceneId === sceneId)
    .map((q) => q.clientRevision);
  return Math.max(knownRevisions(userId, activityId)[sceneId] ?? 0, ...waiting);
}

/**
 * Sends everything `userId` has queued on this device, oldest first, and
 * tries again after a failure (5xx, network) with a growing, capped wait
 * (`retryDelay`), when the browser is back online, and on the next mount.
 * The status says "not saved yet" (queued) from the first failure until the
 * queue is stored; a refusal (4xx) is final for that answer and its reason
 * is shown. Only `userId`'s entries are read: another user's answers on a
 * shared device are never sent or shown (and the server refuses an answer
 * naming another respondent than the session's user: 401, kept queued).
 */
export function useQueueDrain(
  userId: string,
  writes = true,
  onStale?: (entry: QueuedAnswer, stored: { answer: unknown; revision: number }) => boolean,
) {
  const [status, setStatus] = useState<SaveStatus>({ kind: "idle" });
  const sending = useRef(false);
  const failures = useRef(0);
  /** A "not saved yet" or a refusal was shown since the last saved. */
  const trouble = useRef(false);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const staleRef = useRef(onStale);
  useEffect(() => {
    staleRef.current = onStale;
  }, [onStale]);

  const drain = useCallback(async () => {
    if (sending.current || !writes) return;
    sending.current = true;
    clearTimeout(retryTimer.current);
    try {
      let list = queued(userId);
      if (list.length === 0) return;
      // while an earlier attempt failed, the screen keeps saying "not saved yet" until it succeeds
      const sceneIds = [...new Set(list.map((q) => q.sceneId))];
      setStatus((s) =>
        s.kind === "failed" || s.kind === "queued" || s.kind === "signedOut" ? s : { kind: "saving", sceneIds },
      );
      let failed: { reason: string; sceneId: string } | null = null;
      const replaced: string[] = [];
      for (const entry of list.sort((a, b) => a.queuedAt - b.queuedAt)) {
        const outcome = await send(entry);
        if (outcome.kind === "retry" || outcome.kind === "signedOut") {
          trouble.current = true;
          setStatus({ kind: outcome.kind === "retry" ? "queued" : "signedOut" });
          failures.current += 1;
          retryTimer.current = setTimeout(() => void drain(), retryDelay(failures.current));
          return;
        }
        dequeue(entry.key);
        if (outcome.kind === "rejected") failed = { reason: outcome.reason, sceneId: entry.sceneId };
        // the server kept a newer answer: the page shows it (when nothing newer was typed here since)
        if (outcome.kind === "stale" && staleRef.current?.(entry, outcome)) replaced.push(entry.sceneId);
      }
      failures.current = 0;
      list = queued(userId);
      const recovered = trouble.current;
      trouble.current = failed !== null;
      setStatus(
        failed
          ? { kind: "failed", ...failed }
          : replaced.length > 0
            ? { kind: "replaced", sceneIds: replaced }
            : list.length > 0
              ? { kind: "saving", sceneIds }
              : { kind: "saved", sceneIds, recovered },
      );
      if (list.length > 0) retryTimer.current = setTimeout(() => void drain(), 50);
    } finally {
      sending.current = false;
    }
  }, [userId, writes]);

  useEffect(() => {
    void drain();
    const online = () => {
      failures.current = 0;
      void drain();
    };
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      clearTimeout(retryTimer.current);
    };
  }, [drain]);

  return { status, drain };
}

/**
 * Answers of one respondent to one activity: edits autosave after a pause,
 * `flush` saves at once (moving on); every save is queued on the device first
 * and sent with its idempotency key by `useQueueDrain` until the server
 * stores it or refuses it. `status` is what the screen says: saving, saved,
 * queued (not saved yet — will be sent), failed with the server's reason, or
 * replaced (the server kept another device's newer answer, now shown).
 *
 * Each edit's revision counts up from the highest this device knows for the
 * scene (answer-queue.ts `knownRevisions`), not only from the page's: a page
 * restored by Back (the browser's or the router's cache) or a second tab saves
 * above what was saved since it was rendered. Such a page, when it shows (mounted,
 * restored, made visible again), asks the server for the stored answers when the
 * device knows of newer ones than it shows, and newer stored answers it receives
 * (`initial`) replace the ones on screen.
 */
// eslint-disable-next-line max-lines-per-function -- its callbacks and effects share the answer refs; split into hooks, their dependency lists would change
export function useAnswerSaver(options: {
  userId: string;
  activityId: string;
  mode: "self" | "guide";
  initial: Record<string, StoredAnswer>;
  /** Try-outs (a teacher running a student activity) keep answers on the page only. */
  writes?: boolean;
}) {
  const { userId, activityId, mode, writes = true } = options;
  const start = useMemo(() => {
    const answers: Record<string, SceneAnswer> = {};
    const revisions: Record<string, number> = {};
    for (const [sceneId, stored] of Object.entries(options.initial)) {
      if (stored.answer !== null) answers[sceneId] = stored.answer;
      revisions[sceneId] = stored.revision;
    }
    return { answers, revisions };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the initial answers are read once
  }, []);
  const [answers, setAnswers] = useState<Record<string, SceneAnswer>>(start.answers);
  const revisions = useRef<Record<string, number>>(start.revisions);
  const pending = useRef<Record<string, SceneAnswer>>({});
  const router = useRouter();

  /** Shows the answer the server stores for `sceneId` when it is newer than the page's and nothing newer waits here. */
  const adopt = useCallback(
    (sceneId: string, answer: unknown, revision: number): boolean => {
      if (pending.current[sceneId] !== undefined || (revisions.current[sceneId] ?? 0) > revision) return false;
      if (queued(userId, activityId).some((q) => q.sceneId === sceneId && q.clientRevision > revision)) return false;
      revisions.current[sceneId] = revision;
      setAnswers(({ [sceneId]: _, ...others }) =>
        answer === null ? others : { ...others, [sceneId]: answer as SceneAnswer },
      );
      return true;
    },
    [activityId, userId],
  );
  const onStale = useCallback(
    (entry: QueuedAnswer, stored: { answer: unknown; revision: number }) =>
      entry.activityId === activityId && adopt(entry.sceneId, stored.answer, stored.revision),
    [activityId, adopt],
  );
  const { status, drain } = useQueueDrain(userId, writes, onStale);
  const timers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});

  const commit = useCallback(
    (sceneId: string) => {
      clearTimeout(timers.current[sceneId]);
      const answer = pending.current[sceneId];
      if (answer === undefined) return;
      delete pending.current[sceneId];
      if (!writes) return;
      enqueue({
        key: newKey(),
        userId,
        activityId,
        sceneId,
        answer,
        clientRevision: revisions.current[sceneId]!,
        mode,
        queuedAt: Date.now(),
      });
      void drain();
    },
    [activityId, drain, mode, userId, writes],
  );

  /**
   * An edit, shown at once. `when`: "now" saves at once (a choice), "later"
   * after a pause (typing), "never" keeps it on the page only (an answer not
   * complete yet, e.g. a two-step answer without its reason).
   */
  const change = useCallback(
    (sceneId: string, answer: SceneAnswer, when: "now" | "later" | "never" = "later") => {
      setAnswers((all) => ({ ...all, [sceneId]: answer }));
      clearTimeout(timers.current[sceneId]);
      if (when === "never") {
        delete pending.current[sceneId];
        return;
      }
      revisions.current[sceneId] =
        Math.max(revisions.current[sceneId] ?? 0, writes ? latestOnDevice(userId, activityId, sceneId) : 0) + 1;
      pending.current[sceneId] = answer;
      if (when === "now") commit(sceneId);
      else timers.current[sceneId] = setTimeout(() => commit(sceneId), DEBOUNCE_MS);
    },
    [activityId, commit, userId, writes],
  );

  /** Saves the scene's pending edit now (moving on). */
  const flush = useCallback((sceneId: string) => commit(sceneId), [commit]);

  // answers still queued on this device (from before a reload) win over older stored ones; a page that shows
  // older answers than the device knows were saved since (restored by Back, a second tab) asks for the stored ones
  useEffect(() => {
    if (!writes) return;
    const look = () => {
      const newer = queued(userId, activityId).filter((q) => q.clientRevision > (revisions.current[q.sceneId] ?? 0));
      for (const q of newer) revisions.current[q.sceneId] = q.clientRevision;
      if (newer.length > 0)
        setAnswers((all) => ({
          ...all,
          ...Object.fromEntries(newer.map((q) => [q.sceneId, q.answer as SceneAnswer])),
        }));
      const known = Object.entries(knownRevisions(userId, activityId));
      if (known.some(([sceneId, revision]) => revision > (revisions.current[sceneId] ?? 0))) router.refresh();
    };
    look();
    const restored = (e: PageTransitionEvent) => {
      if (e.persisted) look();
    };
    const shown = () => {
      if (document.visibilityState === "visible") look();
    };
    window.addEventListener("pageshow", restored);
    document.addEventListener("visibilitychange", shown);
    return () => {
      window.removeEventListener("pageshow", restored);
      document.removeEventListener("visibilitychange", shown);
    };
  }, [activityId, router, userId, writes]);

  // the stored answers as the server sent them again (a refresh): the newer ones replace the page's
  useEffect(() => {
    if (!writes) return;
    for (const [sceneId, stored] of Object.entries(options.initial)) {
      if (stored.revision > (revisions.current[sceneId] ?? 0)) adopt(sceneId, stored.answer, stored.revision);
    }
  }, [adopt, options.initial, writes]);

  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === "hidden") for (const id of Object.keys(pending.current)) commit(id);
    };
    document.addEventListener("visibilitychange", hidden);
    return () => document.removeEventListener("visibilitychange", hidden);
  }, [commit]);

  const hasUnsent = useCallback(
    () => writes && (Object.keys(pending.current).length > 0 || queued(userId, activityId).length > 0),
    [activityId, userId, writes],
  );

  return { answers, status, change, flush, hasUnsent };
}
