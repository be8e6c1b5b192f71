import type { ErrorCode } from "@/lib/errors";
import { answerSchemaFor, sceneSchema } from "@/lib/scenes/schema";
import { refusalOf, refusedForData } from "./outcomes";
import type { SaveRefusal } from "./refusals";
import type { SaveAnswerInput } from "./schema";
import { errorField, log } from "@/lib/ops/log";

/**
 * Saving answers in batches (docs/product-design.md "Answers"; issue #9's sustained save
 * rate). Saves that arrive together (a class answering at once) are checked
 * AND written by ONE SQL statement, whoever sent them: one database round
 * trip for the whole batch.
 *
 * Framework-free (no Next.js, no Prisma): the app's route handler runs it
 * over Prisma (lib/responses/save.ts), the production server's answer
 * endpoint over its own node-postgres pool (lib/responses/endpoint.ts).
 *
 * Each save is checked as on its own, in this order: the respondent exists
 * and is not disabled (401); is a student or teacher of a school, and a
 * student for a guide answer (403); the activity is their school's, active,
 * for their role, and the scene is one of its scenes (404); a self answer
 * needs the activity in self mode, a guide answer the running session on that
 * very scene, not locked (409); the answer fits the scene's schema (400). One
 * row per respondent and scene: a newer client revision replaces it, an older
 * one changes nothing ("stale"), a retry with the same idempotency key gets
 * the same answer back. The answer's schema is checked here, before the
 * statement, against the scene content this process knows; the statement
 * refuses the row when the scene was edited since, and the save is checked
 * again with the new content.
 *
 * One save never costs another one its answer: what PostgreSQL would refuse
 * (NUL, lone surrogates, over-long text) is refused by the answer's schema
 * before the statement, and a batch statement the database still refuses
 * for its data is run again in halves, down to the row it refuses, which
 * alone is refused (400 invalidAnswer); the others are stored.
 */

export type SaveResult =
  | { ok: true; revision: number; savedAt: string; stale: boolean }
  | { ok: false; status: 400 | 401 | 403 | 404 | 409; code: ErrorCode; reason?: SaveRefusal };

/**
 * Runs one SQL statement with positional parameters and returns its rows.
 * `name` is the statement's stable name: a driver may prepare it once per
 * connection (node-postgres does), so that PostgreSQL plans it once.
 */
export type Query = <T>(sql: string, params: unknown[], name: string) => Promise<T[]>;

interface Pending {
  userId: string;
  /** the session version the token carries (null: the caller checked the session already) */
  sessionVersion: number | null;
  input: SaveAnswerInput;
  attempts: number;
  resolve: (result: SaveResult) => void;
  reject: (error: unknown) => void;
}

/** What the statement answers per save: the refusal, or the row written, or the row that stays. */
interface OutcomeRow {
  i: number;
  refusal: string | null;
  activity_id: string | null;
  guided: boolean;
  written_revision: number | null;
  written_at: Date | string | null;
  current_revision: number | null;
  current_key: string | null;
  current_at: Date | string | null;
}

/**
 * The session settings of a connection that runs the save statement (lib/responses/endpoint.ts's pool): a
 * generic plan spares PostgreSQL planning every batch. It is made once per connection and kept while the
 * tables grow, so every lookup in the statement is an index probe by key (LATERAL … LIMIT 1), never a join
 * the planner may serve with a scan while a table is small (tests/integration/answer-plan.integration.test.ts).
 */
export const WRITER_PG_OPTIONS = "-c plan_cache_mode=force_generic_plan";

export const SAVE_SQL = `
  with req as (
    select * from unnest($1::int[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::text[], $9::text[], $10::text[], $11::int[])
      as r(i, user_id, activity_id, scene_id, mode, answer, revision, key, content_version, answer_error, session_version)
  ),
  acts as materialized (
    select a.id, a.mode::text as mode, a.school_id, a.actor_type::text as actor_type,
      array(select x.id from activity_scenes x where x.activity_id = a.id order by x.position) as scene_ids,
      gs.id as session_id, gs.current_scene_id, gs.locked_scene_ids
    from activities a
    left join lateral (select g.id, g.current_scene_id, g.locked_scene_ids from guide_sessions g where g.activity_id = a.id and g.ended_at is null limit 1) gs on true
    where a.id = any(array(select distinct activity_id from req)) and a.status = 'active'
  ),
  chk as (
    select r.i, r.user_id, r.scene_id, r.mode, r.answer, r.revision, r.key, a.id as activity_id, a.session_id, d.counterbalance_group as grp,
      case
        when u.id is null or u.disabled or r.session_version <> u.session_version then 'unauthenticated'
        when u.role = 'manager' or u.school_id is null then 'forbidden'
        when r.mode = 'guide' and u.role <> 'student' then 'forbidden'
        when a.id is null or sc.id is null then 'activityNotFound'
        when r.mode = 'self' and a.mode <> 'self' then 'notSelfMode'
        when r.mode = 'guide' and (a.mode <> 'guide' or a.session_id is null) then 'sessionNotRunning'
        when r.mode = 'guide' and a.current_scene_id is distinct from r.scene_id then 'notCurrentScene'
        when r.mode = 'guide' and r.scene_id = any(coalesce(a.locked_scene_ids, '{}')) then 'locked'
        when r.content_version is distinct from sc.xmin::text then 'sceneChanged'
        else r.answer_error
      end as refusal,
      -- the position in the order the respondent sees: their group's own order when it names exactly the activity's scenes
      (case
        when r.mode = 'self' and o.scene_ids is not null and cardinality(o.scene_ids) = cardinality(a.scene_ids) and o.scene_ids @> a.scene_ids
          then array_position(o.scene_ids, r.scene_id)
        else array_position(a.scene_ids, r.scene_id)
      end) - 1 as position
    -- per request, lookups by key (LATERAL … LIMIT 1: index probes whatever the planner guesses of the batch's size,
    -- never a scan of a whole table, also in the generic plan of the prepared statement)
    from req r
    left join lateral (select u.id, u.role, u.disabled, u.school_id, u.session_version from users u where u.id = r.user_id limit 1) u on true
    left join acts a on a.id = r.activity_id and a.school_id = u.school_id and a.actor_type = u.role::text
    left join lateral (select sc.id, sc.xmin from activity_scenes sc where sc.id = r.scene_id and sc.activity_id = a.id limit 1) sc on true
    left join lateral (select d.counterbalance_group from student_details d where d.user_id = r.user_id limit 1) d on true
    left join lateral (select o.scene_ids from activity_scene_orders o where o.activity_id = a.id and o."group" = d.counterbalance_group limit 1) o on true
  ),
  ins as (
    insert into responses (activity_id, scene_id, user_id, answer, scene_position, counterbalance_group, mode, session_id, client_revision, idempotency_key)
    select activity_id, scene_id, user_id, answer, position, grp, mode::"ResponseMode", case when mode = 'guide' then session_id end, revision, key
    from chk where refusal is null
    on conflict (user_id, scene_id) do update set
      answer = excluded.answer, scene_position = excluded.scene_position, counterbalance_group = excluded.counterbalance_group,
      mode = excluded.mode, session_id = excluded.session_id, client_revision = excluded.client_revision,
      idempotency_key = excluded.idempotency_key, updated_at = now()
    where responses.client_revision < excluded.client_revision
    returning user_id, scene_id, client_revision, updated_at
  )
  select c.i, c.refusal, c.activity_id::text, (c.mode = 'guide') as guided,
    ins.client_revision as written_revision, ins.updated_at as written_at,
    cur.client_revision as current_revision, cur.idempotency_key as current_key, cur.updated_at as current_at
  from chk c
  left join ins on ins.user_id = c.user_id and ins.scene_id = c.scene_id
  -- the row that stays (a retry, an older revision): probed by its key, never a join over the whole table
  left join lateral (
    select cur.client_revision, cur.idempotency_key, cur.updated_at from responses cur
    where c.refusal is null and ins.user_id is null and cur.user_id = c.user_id and cur.scene_id = c.scene_id limit 1
  ) cur on true`;

// xmin: the scene row's version (it changes with every update of the row), a cheap stand-in for its content
const SCENES_SQL = `select id::text, type::text, content::text, xmin::text as version from activity_scenes where id = any($1::uuid[])`;

const REFUSALS: Record<string, SaveResult> = {
  unauthenticated: { ok: false, status: 401, code: "UNAUTHENTICATED" },
  forbidden: { ok: false, status: 403, code: "FORBIDDEN" },
  activityNotFound: { ok: false, status: 404, code: "NOT_FOUND", reason: "activityNotFound" },
  notSelfMode: { ok: false, status: 409, code: "CONFLICT", reason: "notSelfMode" },
  sessionNotRunning: { ok: false, status: 409, code: "CONFLICT", reason: "sessionNotRunning" },
  notCurrentScene: { ok: false, status: 409, code: "CONFLICT", reason: "notCurrentScene" },
  locked: { ok: false, status: 409, code: "CONFLICT", reason: "locked" },
  requiredInput: { ok: false, status: 400, code: "VALIDATION", reason: "requiredInput" },
  invalidAnswer: { ok: false, status: 400, code: "VALIDATION", reason: "invalidAnswer" },
  invalidCharacters: { ok: false, status: 400, code: "VALIDATION", reason: "invalidCharacters" },
  tooLong: { ok: false, status: 400, code: "VALIDATION", reason: "tooLong" },
};

/** A scene's answer checker, built once per scene content (building one costs more than the rest of a check). */
interface SceneChecker {
  version: string;
  checker: ReturnType<typeof answerSchemaFor> | null;
}
const MAX_SCENES = 2_000;
/**
 * How long a save that finds no statement running waits for the saves arriving with it (ms): a student waits
 * this much longer for a lone save; a class saving at once makes fewer, fuller statements (docs/benchmarks.md).
 */
const GATHER_MS = 1;
const iso = (at: Date | string) => new Date(at).toISOString();

export class AnswerWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly scenes = new Map<string, SceneChecker>();
  private readonly outstanding = new Set<Promise<SaveResult>>();

  /**
   * `maxBatch` saves at most per statement; `maxInFlight` statements at once
   * (one by default): while it runs, new saves gather into the next batch (and
   * with no statement running, for `gatherMs` after the first), so
   * the busier the school, the bigger the batches and the fewer the
   * statements per save. Measured (docs/benchmarks.md): one statement at a
   * time saves more per second than two or more, which compete for the same
   * cores and rows and make smaller batches. More throughput comes from more
   * app instances (docs/scaling.md).
   */
  constructor(
    private readonly query: Query,
    private readonly options: { maxBatch?: number; maxInFlight?: number; gatherMs?: number; onGuideSave?: (activityId: string) => void } = {},
  ) {}

  /** Saves one answer of `userId` (from the session, whose version is checked here unless null) with the saves that arrive with it. */
  save(userId: string, input: SaveAnswerInput, sessionVersion: number | null = null): Promise<SaveResult> {
    const saved = new Promise<SaveResult>((resolve, reject) => {
      this.queue.push({ userId, sessionVersion, input, attempts: 0, resolve, reject });
      this.schedule();
    });
    this.outstanding.add(saved);
    const done = () => void this.outstanding.delete(saved);
    saved.then(done, done);
    return saved;
  }

  /** Resolves once every save accepted so far is written or refused (a shutdown waits for it). */
  async drain(): Promise<void> {
    while (this.outstanding.size > 0) await Promise.allSettled([...this.outstanding]);
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    const flush = () => {
      this.scheduled = false;
      void this.flush();
    };
    // A statement running: what arrives meanwhile makes the next batch, sent when it ends. None running: the
    // saves that arrive with this one (a class answering at once) get a moment to join it, rather than the
    // first going alone and the others waiting for its whole statement.
    const gatherMs = this.options.gatherMs ?? GATHER_MS;
    if (this.inFlight === 0 && gatherMs > 0) setTimeout(flush, gatherMs);
    else setImmediate(flush);
  }

  private async flush() {
    if (this.inFlight >= (this.options.maxInFlight ?? 1)) return; // the batch that ends flushes again
    const max = this.options.maxBatch ?? 200;
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const inBatch = new Set<string>();
    for (const p of this.queue) {
      // one statement may touch a (respondent, scene) row once: a second save of it waits for the next batch
      const key = `${p.userId}/${p.input.sceneId}`;
      if (batch.length < max && !inBatch.has(key)) {
        inBatch.add(key);
        batch.push(p);
      } else rest.push(p);
    }
    this.queue = rest;
    if (rest.length > 0) this.schedule();
    if (batch.length === 0) return;
    this.inFlight += 1;
    try {
      await this.settle(batch);
    } finally {
      this.inFlight -= 1;
      if (this.queue.length > 0) this.schedule();
    }
  }

  /**
   * Runs a batch so that every save in it is resolved or rejected: a
   * statement refused for its data is run again in halves, down to the save
   * it refuses (400); any other failure (the database away) rejects the
   * saves of that statement, and the clients try again.
   */
  private async settle(batch: Pending[]): Promise<void> {
    try {
      await this.run(batch);
    } catch (error) {
      if (!refusedForData(error)) {
        for (const p of batch) p.reject(error);
      } else if (batch.length === 1) {
        log().error({ event: "answers.refused", ...errorField(error) }, "answers: the database refused an answer that passed its checks");
        batch[0]!.resolve(REFUSALS.invalidAnswer!);
      } else {
        const half = Math.ceil(batch.length / 2);
        await this.settle(batch.slice(0, half));
        await this.settle(batch.slice(half));
      }
    }
  }

  /** Loads the checkers of scenes this process has not seen yet (or whose content changed). */
  private async learnScenes(sceneIds: string[]) {
    const rows = await this.query<{ id: string; type: string; content: string; version: string }>(SCENES_SQL, [sceneIds], "manabiya_answer_scenes");
    for (const row of rows) {
      const scene = sceneSchema.safeParse({ type: row.type, content: JSON.parse(row.content) });
      if (this.scenes.size >= MAX_SCENES) this.scenes.delete(this.scenes.keys().next().value!);
      this.scenes.set(row.id, { version: row.version, checker: scene.success ? answerSchemaFor(scene.data) : null });
    }
  }

  private async run(batch: Pending[]) {
    const unknown = [...new Set(batch.map((p) => p.input.sceneId).filter((id) => !this.scenes.has(id)))];
    if (unknown.length > 0) await this.learnScenes(unknown);

    const answers: string[] = [];
    const versions: (string | null)[] = [];
    const errors: (string | null)[] = [];
    for (const { input } of batch) {
      const scene = this.scenes.get(input.sceneId);
      versions.push(scene?.version ?? null);
      if (!scene) {
        // no such scene: the statement refuses it (activityNotFound)
        answers.push("null");
        errors.push(null);
      } else if (!scene.checker) {
        answers.push("null");
        errors.push("activityNotFound");
      } else {
        const answer = scene.checker.safeParse(input.answer);
        answers.push(answer.success ? JSON.stringify(answer.data) : "null");
        errors.push(answer.success ? null : refusalOf(answer.error.issues));
      }
    }
    const rows = await this.query<OutcomeRow>(
      SAVE_SQL,
      [
        batch.map((_, i) => i), batch.map((p) => p.userId), batch.map((p) => p.input.activityId), batch.map((p) => p.input.sceneId),
        batch.map((p) => p.input.mode), answers, batch.map((p) => p.input.clientRevision), batch.map((p) => p.input.idempotencyKey), versions, errors,
        batch.map((p) => p.sessionVersion),
      ],
      "manabiya_answer_save",
    );

    const guided = new Set<string>();
    const again: Pending[] = [];
    for (const row of rows) {
      const p = batch[Number(row.i)]!;
      if (row.refusal === "sceneChanged") {
        // the scene was edited since this process learned it: learn it again and check the save again
        this.scenes.delete(p.input.sceneId);
        if (p.attempts < 3) {
          p.attempts += 1;
          again.push(p);
        } else p.resolve(REFUSALS.activityNotFound!);
      } else if (row.refusal !== null) {
        p.resolve(REFUSALS[row.refusal] ?? REFUSALS.invalidAnswer!);
      } else if (row.written_revision !== null && row.written_at !== null) {
        if (row.guided && row.activity_id) guided.add(row.activity_id);
        p.resolve({ ok: true, revision: Number(row.written_revision), savedAt: iso(row.written_at), stale: false });
      } else if (row.current_revision !== null && row.current_at !== null) {
        // not written: the same save again (a retry), or an older revision than the stored one
        p.resolve({ ok: true, revision: Number(row.current_revision), savedAt: iso(row.current_at), stale: row.current_key !== p.input.idempotencyKey });
      } else if (p.attempts < 3) {
        // a concurrent statement stored this row after ours began: its snapshot cannot see it; ask again
        p.attempts += 1;
        again.push(p);
      } else p.reject(new Error("answer neither written nor stored"));
    }
    if (again.length > 0) {
      this.queue.unshift(...again);
      this.schedule();
    }
    for (const activityId of guided) this.options.onGuideSave?.(activityId);
  }
}
