"use client";
import { useQueueDrain } from "./use-answer-saver";

/**
 * Delivers the signed-in user's answers still queued on this device (e.g.
 * typed offline before a sign-out on a shared tablet) as soon as they are
 * back on their home screen, not only when they open that activity again.
 * Renders nothing: the activity's own screen shows the answers' status.
 */
export function QueueDelivery({ userId }: { userId: string }) {
  useQueueDrain(userId);
  return null;
}
