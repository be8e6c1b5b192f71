import DataLoader from "dataloader";

/**
 * Whether sessions are still their users' current ones (not signed out, no new
 * password or code, not disabled since), for responses that stay open: the checks
 * made in the same turn of the event loop (an instance's streams' heartbeats) go as
 * ONE query. Keys: `userId:sessionVersion`. Run over Prisma by the app
 * (platform/auth/session.ts) and over node-postgres by the production server's student
 * streams (features/play/server/stream-endpoint.ts). Framework-free.
 */
export const SESSION_CHECK_SQL = "select id::text, session_version, disabled from users where id = any($1::uuid[])";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function sessionCheckLoader(
  query: (sql: string, ids: string[]) => Promise<{ id: string; session_version: number; disabled: boolean }[]>,
): DataLoader<string, boolean> {
  return new DataLoader<string, boolean>(
    async (keys) => {
      const asked = keys.map((k) => ({
        id: k.slice(0, k.lastIndexOf(":")),
        sv: Number(k.slice(k.lastIndexOf(":") + 1)),
      }));
      const ids = [...new Set(asked.map((a) => a.id).filter((id) => UUID.test(id)))];
      const rows = await query(SESSION_CHECK_SQL, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return asked.map(({ id, sv }) => {
        const row = byId.get(id);
        return Boolean(row && !row.disabled && row.session_version === sv);
      });
    },
    { cache: false, maxBatchSize: 1000 },
  );
}
