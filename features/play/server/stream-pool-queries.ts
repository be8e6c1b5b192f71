import type { QueryResultRow } from "pg";
import { sessionCheckLoader } from "@/platform/auth/session-checks";
import { createPool } from "@/platform/db/pools";
import type { EndpointOptions } from "@/platform/http/node-http";
import { countsNotifierVia } from "../../../platform/notify/listen";
import { presenceWriter } from "../shared/presence";
import { SESSION_OPEN_SQL } from "../shared/klass";
import { provideRankings, rankingLoader, rankingReads, standingsFrom } from "./game-standings";
import {
  readActivity,
  SESSIONS_SQL,
  type SessionRow,
  sessionRowLoader,
  sharedStudentReads,
  statesOfRows,
} from "./student-state";

/** The student re-read as getActor does, the activity as liveAccess checks it, their class, and the running session if it is open to them: one query. */
const STUDENT_SQL = `
  select u.role::text as role, u.disabled, u.session_version, d.grade, d.class_name,
         (select a.id::text from activities a where a.id = $2::uuid and a.school_id = u.school_id and a.status = 'active' and a.actor_type = 'student') as activity_id,
         (select gs.id::text from guide_sessions gs where gs.activity_id = $2::uuid and gs.ended_at is null and ${SESSION_OPEN_SQL("gs", "d")} limit 1) as session_id
  from users u left join student_details d on d.user_id = u.id where u.id = $1::uuid`;

interface StudentRow {
  role: string;
  disabled: boolean;
  session_version: number;
  activity_id: string | null;
  session_id: string | null;
  grade: number | null;
  class_name: string | null;
}

/**
 * The database of the production server's student streams (features/play/server/stream-endpoint.ts): a pool
 * of its own, and over it the student re-read, the live states (one query per change, shared by a class's
 * streams) with a shown game board's standings (the process's rankings, game-standings.ts provideRankings: one
 * statement per change for the sessions read together, the projectors' boards included), the session checks, and the presence writes with the counts they change. Framework-free: no
 * Next.js, no Prisma.
 */
export function createStreamDatabase(options: Pick<EndpointOptions, "databaseUrl" | "poolSize">) {
  const pool = createPool({
    name: "streams",
    url: options.databaseUrl,
    max: options.poolSize ?? 4,
    timeouts: { statementMs: 10_000 },
    logIdleFailures: true,
  });
  const rows = async <T>(sql: string, params: unknown[]) =>
    (await pool.query<T & QueryResultRow>(sql, params)).rows as T[];
  const sessions = sessionRowLoader((ids) => rows<SessionRow>(SESSIONS_SQL, [ids]));
  // the process's rankings are this pool's: the projectors' boards read the same ranking as the students' standings
  const rankings = rankingReads(rankingLoader(rows));
  const withdrawRankings = provideRankings(rankings);
  const standings = standingsFrom(() => rankings);
  const stateOf = sharedStudentReads(async (activityId) =>
    readActivity(statesOfRows(await sessions.load(activityId)), standings),
  );
  const presence = presenceWriter((sql, params) => pool.query(sql, params));
  const checks = sessionCheckLoader(rows);
  const countsChanged = countsNotifierVia(pool);

  return {
    /** The student of a session cookie, with the activity (if theirs to follow) and their open session. */
    async readStudent(userId: string, activityId: string | null): Promise<StudentRow | undefined> {
      const [user] = await rows<StudentRow>(STUDENT_SQL, [userId, activityId]);
      return user;
    },
    stateOf,
    presence,
    checks,
    countsChanged,
    async close() {
      withdrawRankings();
      await pool.end();
    },
  };
}
