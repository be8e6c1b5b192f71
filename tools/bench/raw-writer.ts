/**
 * The baseline of the sustained-saves rows: what the app's writer
 * (features/play/server/answer-writer.ts) does to the database, without the app. The same
 * rows (all ten columns of `responses`, the same answer JSON), the same
 * batching (everything that arrives in one turn of the event loop, at most
 * 200 saves, one statement at a time, a (respondent, scene) once per
 * statement), and the same statement shape: one prepared INSERT … SELECT
 * FROM unnest(…) ON CONFLICT (user_id, scene_id) DO UPDATE … WHERE the
 * stored revision is older, RETURNING the rows written. What it leaves out
 * is exactly the app's share: HTTP, the session, the checks of the
 * respondent, activity, scene and answer. Its clients are in this process,
 * so every save in flight is already in its one turn (its statements carry
 * 16.0 and 40.0 saves).
 */
import pg from "pg";

/** writer.ts's defaults (`maxBatch`, `maxInFlight`) as the production server uses them (features/play/server/answer-endpoint.ts) */
const MAX_BATCH = 200;

export interface RawSave {
  activityId: string;
  sceneId: string;
  userId: string;
  /** the answer as JSON text */
  answer: string;
  position: number;
  group: string | null;
  mode: "self" | "guide";
  clientRevision: number;
  idempotencyKey: string;
}

const RAW_SQL = `
  insert into responses (activity_id, scene_id, user_id, answer, scene_position, counterbalance_group, mode, session_id, client_revision, idempotency_key)
  select activity_id, scene_id, user_id, answer, position, grp, mode::"ResponseMode", null, revision, key
  from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::jsonb[], $5::int[], $6::text[], $7::text[], $8::int[], $9::text[])
    as r(activity_id, scene_id, user_id, answer, position, grp, mode, revision, key)
  on conflict (user_id, scene_id) do update set
    answer = excluded.answer, scene_position = excluded.scene_position, counterbalance_group = excluded.counterbalance_group,
    mode = excluded.mode, session_id = excluded.session_id, client_revision = excluded.client_revision,
    idempotency_key = excluded.idempotency_key, updated_at = now()
  where responses.client_revision < excluded.client_revision
  returning user_id, scene_id, client_revision, updated_at`;

interface Pending {
  save: RawSave;
  resolve: (written: number) => void;
  reject: (error: unknown) => void;
}

export class RawWriter {
  private readonly client: pg.Client;
  private readonly connected: Promise<void>;
  private queue: Pending[] = [];
  private scheduled = false;
  private running = false;
  private statements = 0;
  private saves = 0;

  constructor(databaseUrl: string) {
    this.client = new pg.Client({ connectionString: databaseUrl });
    this.connected = this.client.connect().then(() => undefined);
  }

  /** Resolves with the number of rows the statement wrote for this save (0: an older revision than the stored one). */
  save(save: RawSave): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ save, resolve, reject });
      this.schedule();
    });
  }

  /** Saves per statement since the last reset. */
  meanBatch(): number {
    return this.statements ? this.saves / this.statements : 0;
  }
  resetStats(): void {
    this.statements = 0;
    this.saves = 0;
  }

  async end(): Promise<void> {
    await this.connected;
    await this.client.end();
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush() {
    if (this.running) return;
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const inBatch = new Set<string>();
    for (const p of this.queue) {
      const key = `${p.save.userId}/${p.save.sceneId}`;
      if (batch.length < MAX_BATCH && !inBatch.has(key)) {
        inBatch.add(key);
        batch.push(p);
      } else rest.push(p);
    }
    this.queue = rest;
    if (batch.length === 0) return;
    this.running = true;
    try {
      await this.connected;
      const s = batch.map((p) => p.save);
      const { rows } = await this.client.query<{ user_id: string; scene_id: string }>({
        name: "bench_raw_save",
        text: RAW_SQL,
        values: [
          s.map((x) => x.activityId),
          s.map((x) => x.sceneId),
          s.map((x) => x.userId),
          s.map((x) => x.answer),
          s.map((x) => x.position),
          s.map((x) => x.group),
          s.map((x) => x.mode),
          s.map((x) => x.clientRevision),
          s.map((x) => x.idempotencyKey),
        ],
      });
      this.statements += 1;
      this.saves += batch.length;
      const written = new Set(rows.map((r) => `${r.user_id}/${r.scene_id}`));
      for (const p of batch) p.resolve(written.has(`${p.save.userId}/${p.save.sceneId}`) ? 1 : 0);
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}
