import type { ErrorCode } from "@/platform/errors";
import { answerSchemaFor, sceneSchema } from "@/features/scenes/shared/schema";
import { refusalOf, refusedForData } from "../shared/answer-outcomes";
import type { SaveRefusal } from "../shared/answer-refusals";
import type { SaveAnswerInput } from "../shared/answer-schema";
import { type OutcomeRow, SAVE_SQL, SCENES_SQL } from "../shared/answer-writer-sql";
import { errorField, log } from "@/platform/ops/log";

/**
 * Saving answers in batches (docs/product-design.md "Answers"; the bench's
 * sustained save rate). Saves that arrive together (a class answering at once)
 * are checked AND written by ONE SQL statement, whoever sent them: one database
 * round trip for the whole batch.
 *
 * Framework-free (no Next.js, no Prisma): the app's route handler runs it
 * over Prisma (features/play/server/answer-save-commands.ts), the production server's answer
 * endpoint over its own node-postgres pool (features/play/server/answer-endpoint.ts).
 *
 * Each save is checked as on its own, in this order: the respondent exists
 * and is not disabled (401); is a student or teacher of a school, and a
 * student for a guide answer (403); the activity is their school's, active,
 * for their role, and the scene is one of its scenes (404); a self answer
 * needs the activity in self mode, a guide answer the running session on that
 * very scene, not locked and not past a closing countdown's zero plus
 * TIMER_GRACE_SECONDS (409 timeUp), and an answer whose verdict or key its
 * respondent has been shown is final (409 answerFinal; features/play/server/answer-commands.ts);
 * the answer fits the scene's schema (400). One
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

export { SAVE_SQL, WRITER_PG_OPTIONS } from "../shared/answer-writer-sql";

/** An answer a statement wrote (or kept as an attempt): what the learning records are made of (features/play/shared/answer-events.ts). */
export interface WrittenAnswer {
  userId: string;
  activityId: string;
  sceneId: string;
  mode: "self" | "guide";
  revision: number;
  savedAt: string;
  /** the answer as checked and stored */
  answer: unknown;
}

export type SaveResult =
  /** stale: not written, another save of a newer revision stays: `answer` is the one stored (null: an answer to an earlier version of the scene) */
  | { ok: true; revision: number; savedAt: string; stale: false }
  | { ok: true; revision: number; savedAt: string; stale: true; answer: unknown }
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

const REFUSALS: Record<string, SaveResult> = {
  unauthenticated: { ok: false, status: 401, code: "UNAUTHENTICATED" },
  forbidden: { ok: false, status: 403, code: "FORBIDDEN" },
  activityNotFound: { ok: false, status: 404, code: "NOT_FOUND", reason: "activityNotFound" },
  notSelfMode: { ok: false, status: 409, code: "CONFLICT", reason: "notSelfMode" },
  sessionNotRunning: { ok: false, status: 409, code: "CONFLICT", reason: "sessionNotRunning" },
  notCurrentScene: { ok: false, status: 409, code: "CONFLICT", reason: "notCurrentScene" },
  locked: { ok: false, status: 409, code: "CONFLICT", reason: "locked" },
  notOpenYet: { ok: false, status: 409, code: "CONFLICT", reason: "notOpenYet" },
  answerFinal: { ok: false, status: 409, code: "CONFLICT", reason: "answerFinal" },
  timeUp: { ok: false, status: 409, code: "CONFLICT", reason: "timeUp" },
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
 * How long a save that finds no statement running waits for the saves arriving with it (ms). 0: none; it
 * goes in the next turn of the event loop with whatever arrived in this one, and the saves arriving while
 * its statement runs make the next batch. Measured side by side on a quiet machine (docs/benchmarks.md),
 * a 1 ms wait made fewer, fuller statements but a slower round trip: 16 in flight 19–29 % of the baseline
 * against 29–35 % without it.
 */
const GATHER_MS = 0;
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
    private readonly options: {
      maxBatch?: number;
      maxInFlight?: number;
      gatherMs?: number;
      onGuideSave?: (activityId: string) => void;
      /** called once per statement with the answers it wrote, after their saves are answered (never awaited) */
      onWritten?: (answers: WrittenAnswer[]) => void;
    } = {},
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
        log().error(
          { event: "answers.refused", ...errorField(error) },
          "answers: the database refused an answer that passed its checks",
        );
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
    const rows = await this.query<{ id: string; type: string; content: string; version: string }>(
      SCENES_SQL,
      [sceneIds],
      "manabiya_answer_scenes",
    );
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
        batch.map((_, i) => i),
        batch.map((p) => p.userId),
        batch.map((p) => p.input.activityId),
        batch.map((p) => p.input.sceneId),
        batch.map((p) => p.input.mode),
        answers,
        batch.map((p) => p.input.clientRevision),
        batch.map((p) => p.input.idempotencyKey),
        versions,
        errors,
        batch.map((p) => p.sessionVersion),
      ],
      "manabiya_answer_save",
    );

    const guided = new Set<string>();
    const written: WrittenAnswer[] = [];
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
        const saved = { revision: Number(row.written_revision), savedAt: iso(row.written_at) };
        p.resolve({ ok: true, ...saved, stale: false });
        if (this.options.onWritten) written.push(writtenAnswer(p, saved, answers[Number(row.i)]!));
      } else if (row.current_revision !== null && row.current_at !== null) {
        // not written: the same save again (a retry), or an older revision than the stored one
        const savedAt = iso(row.current_at);
        const revision = Number(row.current_revision);
        p.resolve(
          row.current_key === p.input.idempotencyKey
            ? { ok: true, revision, savedAt, stale: false }
            : { ok: true, revision, savedAt, stale: true, answer: row.current_answer ?? null },
        );
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
    if (written.length > 0) this.options.onWritten?.(written);
  }
}

function writtenAnswer(p: Pending, saved: { revision: number; savedAt: string }, answer: string): WrittenAnswer {
  const { activityId, sceneId, mode } = p.input;
  return { userId: p.userId, activityId, sceneId, mode, ...saved, answer: JSON.parse(answer) as unknown };
}
