import DataLoader from "dataloader";
import { deviceOpenSql } from "./device-sessions";

/**
 * Whether sessions are still their users' current ones (not signed out, no new
 * password or code, not disabled since, a staff device not ended), for responses that stay open: the checks
 * made in the same turn of the event loop (an instance's streams' heartbeats) go as
 * ONE query (and one more for staff devices). Keys: sessionCheckKey. Run over Prisma by the app
 * (platform/auth/session.ts) and over node-postgres by the production server's student
 * streams (features/play/server/stream-endpoint.ts). Framework-free.
 */
export const SESSION_CHECK_SQL = "select id::text, session_version, disabled from users where id = any($1::uuid[])";
/** Of the (user, device) pairs, the devices still open (platform/auth/device-sessions.ts). */
export const OPEN_DEVICES_SQL = `select s.sid::text as id from unnest($1::uuid[], $2::uuid[]) as s(uid, sid) where ${deviceOpenSql("s.uid", "s.sid")}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A session's key for the loader: `userId:sessionVersion`, then `:deviceSessionId` for staff. */
export function sessionCheckKey(session: { id: string; sv: number; sid: string | null }): string {
  return session.sid ? `${session.id}:${session.sv}:${session.sid}` : `${session.id}:${session.sv}`;
}

type Query = <Row>(sql: string, params: unknown[]) => Promise<Row[]>;

export function sessionCheckLoader(query: Query): DataLoader<string, boolean> {
  return new DataLoader<string, boolean>(
    async (keys) => {
      const asked = keys.map((k) => {
        const [id = "", sv = "", sid = ""] = k.split(":");
        return { id, sv: Number(sv), sid: UUID.test(sid) ? sid : null };
      });
      const ids = [...new Set(asked.map((a) => a.id).filter((id) => UUID.test(id)))];
      const rows = await query<{ id: string; session_version: number; disabled: boolean }>(SESSION_CHECK_SQL, [ids]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const devices = asked.filter((a) => a.sid && UUID.test(a.id));
      const open = new Set(
        devices.length === 0
          ? []
          : (await query<{ id: string }>(OPEN_DEVICES_SQL, [devices.map((d) => d.id), devices.map((d) => d.sid)])).map(
              (r) => r.id,
            ),
      );
      return asked.map(({ id, sv, sid }) => {
        const row = byId.get(id);
        return Boolean(row && !row.disabled && row.session_version === sv && (sid === null || open.has(sid)));
      });
    },
    { cache: false, maxBatchSize: 1000 },
  );
}
