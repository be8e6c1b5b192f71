/**
 * The live channel's name and message (platform/notify/bus.ts), framework-free so
 * that the production server's answer endpoint (outside the Next.js bundle)
 * notifies the same way the app does.
 */
export const LIVE_CHANNEL = "manabiya_live";

/** `activity:<id>`: a live session's state or counts; `school:<id>`: activities' modes. */
export type LiveTopic = `activity:${string}` | `school:${string}`;
export type LiveKind = "state" | "counts" | "modes" | "resync";
export interface LiveMessage {
  topic: LiveTopic;
  kind: LiveKind;
}

export const livePayload = (topic: LiveTopic, kind: LiveKind) => JSON.stringify({ topic, kind } satisfies LiveMessage);

/** How long answer-count notifications of one activity are gathered into one (per instance). */
export const COUNTS_DEBOUNCE_MS = 300;
