import { OPEN_DEVICES_SQL } from "@/platform/auth/session-checks";
import { createPool, isPooled } from "@/platform/db/pools";
import type { EndpointOptions } from "@/platform/http/node-http";
import { countsNotifierVia } from "@/platform/notify/listen";
import type { SaveAnswerInput } from "../shared/answer-schema";
import { publishWritten } from "./answer-events";
import { AnswerWriter, type SaveResult, WRITER_PG_OPTIONS } from "./answer-writer";

/**
 * The production server's answer saves (features/play/server/answer-endpoint.ts): a pool of its own and the
 * batching writer over it (features/play/server/answer-writer.ts). Framework-free: no Next.js, no Prisma.
 */
export function createAnswerSaver(options: Pick<EndpointOptions, "databaseUrl" | "poolSize">) {
  // The save statement is prepared once per connection, with a generic plan of index probes
  // (WRITER_PG_OPTIONS); behind a transaction pooler neither (isPooled). A batch that hangs (a database that stopped answering) fails after 10 s, and the
  // clients keep their answers and try again.
  const pool = createPool({
    name: "answers",
    url: options.databaseUrl,
    max: options.poolSize ?? 4,
    timeouts: { statementMs: 10_000 },
    settings: WRITER_PG_OPTIONS,
    watched: true,
    logIdleFailures: true,
  });
  const countsChanged = countsNotifierVia(pool);
  // named statements: each connection prepares them once, and PostgreSQL plans them once (measured: about
  // twice the saves per second of unnamed ones); behind a transaction pooler the same SQL unnamed
  const named = !isPooled(pool);
  const writer = new AnswerWriter(
    async (sql, params, name) =>
      (await pool.query(named ? { name, text: sql, values: params } : { text: sql, values: params })).rows,
    { onGuideSave: countsChanged, onWritten: publishWritten },
  );
  return {
    save(userId: string, input: SaveAnswerInput, sessionVersion: number | null): Promise<SaveResult> {
      return writer.save(userId, input, sessionVersion);
    },
    /** A teacher's or manager's device session is open and past its second factor (platform/auth/device-sessions.ts). */
    async deviceOpen(userId: string, sid: string): Promise<boolean> {
      return (await pool.query(OPEN_DEVICES_SQL, [[userId], [sid]])).rowCount === 1;
    },
    async close() {
      await writer.drain(); // every answer already received is written (or refused) before the pool closes
      await pool.end();
    },
  };
}
