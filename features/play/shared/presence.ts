import DataLoader from "dataloader";

/**
 * Presence changes made within 20 ms of each other go as ONE statement: the
 * heartbeats of an instance's streams come together (features/play/server/stream-core.ts), and a class's
 * streams open and close together (the bell: 2,000 deletes one by one kept the
 * pool's connections from the teachers' requests for seconds). Run over Prisma by the app
 * (features/play/server/session-commands.ts) and over node-postgres by the production server's student
 * streams (features/play/server/stream-endpoint.ts). Framework-free.
 */
const TOUCH_SQL = `
  insert into guide_presence (session_id, user_id, seen_at)
  select t.s, t.u, now() from unnest($1::uuid[], $2::uuid[]) as t(s, u)
  where exists (select 1 from guide_sessions gs where gs.id = t.s)
  on conflict (session_id, user_id) do update set seen_at = now()`;
/** A student who left stays as "was here" (the teacher's grid shows them offline, features/play/shared/grid-state.ts): seen at the epoch, never connected. */
const LEAVE_SQL = `
  update guide_presence p set seen_at = 'epoch' from unnest($1::uuid[], $2::uuid[]) as t(s, u)
  where p.session_id = t.s and p.user_id = t.u`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs a statement with positional parameters. */
export type Execute = (sql: string, params: unknown[]) => Promise<unknown>;

function loader(execute: Execute, sql: string) {
  return new DataLoader<string, null>(
    async (keys) => {
      const pairs = [...new Set(keys)]
        .map((k) => k.split(":") as [string, string])
        .filter(([s, u]) => UUID.test(s) && UUID.test(u));
      if (pairs.length) await execute(sql, [pairs.map(([s]) => s), pairs.map(([, u]) => u)]);
      return keys.map(() => null);
    },
    // a class's streams open, beat and close within moments of each other: gathered for 20 ms
    { cache: false, maxBatchSize: 1000, batchScheduleFn: (run) => setTimeout(run, 20) },
  );
}

/** Refreshing (the stream or poll is open) and ending (it closed) students' presence in running sessions. */
export function presenceWriter(execute: Execute) {
  const touch = loader(execute, TOUCH_SQL);
  const leave = loader(execute, LEAVE_SQL);
  return {
    touch: async (sessionId: string, userId: string) => void (await touch.load(`${sessionId}:${userId}`)),
    leave: async (sessionId: string, userId: string) => void (await leave.load(`${sessionId}:${userId}`)),
  };
}
