/** A student's state on the current scene of a live session, as the teacher's grid shows it. Framework-free. */
export const GRID_STATES = ["notJoined", "working", "answered", "offline"] as const;
export type GridState = (typeof GRID_STATES)[number];

/**
 * answered: their answer to the current scene is saved (whether or not still connected);
 * working: connected (stream or poll seen within the presence window), no answer yet;
 * offline: was in the session, gone (stream closed or not seen within the window), no answer;
 * notJoined: never followed this session.
 */
export function gridStateOf(
  row: { answered: boolean; seenAt: number | null },
  now: number,
  windowMs: number,
): GridState {
  if (row.answered) return "answered";
  if (row.seenAt === null) return "notJoined";
  return now - row.seenAt < windowMs ? "working" : "offline";
}

/** How many students are in each state. */
export function gridCounts(states: readonly { state: GridState }[]): Record<GridState, number> {
  const counts: Record<GridState, number> = { notJoined: 0, working: 0, answered: 0, offline: 0 };
  for (const s of states) counts[s.state] += 1;
  return counts;
}
