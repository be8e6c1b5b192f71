import type { ChildProcess } from "node:child_process";

/**
 * The server's answer saves as its idle children see them, so that a child's database work waits for a class's burst
 * of saves to end instead of making each save's commit wait for its log (docs/benchmarks.md, the learning records'
 * row). The server tells the children that follow it (followForeground) that saves are being made (foregroundBusy,
 * one message every SIGNAL_MS at most); in a child that listens (listenForeground), foregroundQuiet resolves once
 * none has come for QUIET_MS, or DEFER_MAX_MS into a stretch of saves that has not stopped: then the child works
 * beside them, so that under saves that never stop its work is late by DEFER_MAX_MS at most.
 */
const SIGNAL_MS = 100;
export const QUIET_MS = 400;
export const DEFER_MAX_MS = 20_000;
const MESSAGE = "manabiyaForegroundBusy";

interface Foreground {
  children: Set<ChildProcess>;
  lastSent: number;
  /** in a child: the last message's time, and when the stretch of saves it belongs to began */
  lastBusy: number;
  busySince: number;
  listening: boolean;
}

const shared = globalThis as unknown as { manabiyaForeground?: Foreground };
const state = (): Foreground =>
  (shared.manabiyaForeground ??= { children: new Set(), lastSent: 0, lastBusy: 0, busySince: 0, listening: false });

/** In the server: `child` is told of the saves from now on, until it ends. */
export function followForeground(child: ChildProcess): void {
  const { children } = state();
  children.add(child);
  child.once("exit", () => children.delete(child));
}

/** In the server: a save is being made (called for each save statement; a message at most every SIGNAL_MS). */
export function foregroundBusy(now = Date.now()): void {
  const s = state();
  if (s.children.size === 0 || now - s.lastSent < SIGNAL_MS) return;
  s.lastSent = now;
  for (const child of s.children) if (child.connected) child.send({ [MESSAGE]: now }, () => undefined);
}

/** In a child: the server's message that saves are being made, sent at `now`. */
export function noteForegroundBusy(now = Date.now()): void {
  const s = state();
  if (now - s.lastBusy >= QUIET_MS) s.busySince = now;
  s.lastBusy = now;
}

/** In a child: listens for the server's messages (once). */
export function listenForeground(): void {
  const s = state();
  if (s.listening) return;
  s.listening = true;
  process.on("message", (message: unknown) => {
    if (typeof message !== "object" || message === null || !(MESSAGE in message)) return;
    const sent = (message as Record<typeof MESSAGE, unknown>)[MESSAGE];
    noteForegroundBusy(typeof sent === "number" ? Math.min(sent, Date.now()) : Date.now());
  });
}

/** In a child: resolves once no save has been made for QUIET_MS, or DEFER_MAX_MS into a stretch of saves. */
export async function foregroundQuiet(): Promise<void> {
  for (;;) {
    const { lastBusy, busySince } = state();
    const until = Math.min(lastBusy + QUIET_MS, busySince + DEFER_MAX_MS);
    const wait = until - Date.now();
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
