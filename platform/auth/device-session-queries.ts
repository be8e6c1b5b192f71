import "server-only";
import { db } from "@/platform/db";
import { SESSION_HOURS } from "./device-sessions";

export interface DeviceSessionRow {
  id: string;
  method: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/**
 * A person's signed-in devices, newest first: not signed out or ended, of their current session version
 * (a new password or disabling ends them all) and younger than a session token lives.
 */
export function listOpenDeviceSessions(userId: string): Promise<DeviceSessionRow[]> {
  return db().$queryRaw<DeviceSessionRow[]>`
    select d.id::text, d.method, d.ip, d.user_agent as "userAgent", d.created_at as "createdAt", d.last_seen_at as "lastSeenAt"
    from device_sessions d join users u on u.id = d.user_id
    where d.user_id = ${userId}::uuid and d.ended_at is null and d.session_version = u.session_version
      and d.created_at > now() - make_interval(hours => ${SESSION_HOURS})
    order by d.created_at desc
    limit 100`;
}
