import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/platform/db";
import { foregroundQuiet } from "@/platform/ops/foreground";
import { publicUrl } from "@/platform/env";
import type { WrittenAnswer } from "@/features/play/server/answer-writer";
import { verdictOf } from "@/features/scenes/shared/key";
import type { Scene } from "@/features/scenes/shared/schema";
import { attemptKey, type Completion, completionsOf, sceneParser } from "./completion-queries";
import { VERB_RANK_SQL } from "./lrs-queries";
import { packStatement } from "./xapi-body";
import { buildStatement, responseText, type StatementFacts, type VerbName } from "@/features/lti/shared/xapi";

/**
 * The statements the written answers make (features/lti/README.md "Learning records"), stored in xapi_statements as
 * waiting for the academy's LRS: for each answer `answered` (with its verdict where the scene has a key), for the
 * person's first answer of an attempt `initialized`, and once every scene of the activity is answered `completed`
 * (with the score where the scenes have keys); the 学習指導要領コード, the scene's or else the activity's, goes with
 * each as a context extension. Only for academies with an LRS and people with a OneRoster sourcedId.
 * Every statement's id is derived from what it states, so a job run again stores nothing twice.
 */

interface AnswerRow {
  user_id: string;
  scene_id: string;
  sourced_id: string | null;
  person_name: string | null;
  academy_id: string;
  include_names: boolean;
  activity_id: string;
  title: string;
  activity_code: string | null;
  position: number;
  scene_code: string | null;
  type: string;
  content: unknown;
  session_id: string | null;
  class_name: string | null;
}

const ANSWERS_SQL = `
  select q.user_id::text, q.scene_id::text, u.sourced_id, u.name as person_name, s.academy_id::text, l.include_names,
    a.id::text as activity_id, a.title, a.curriculum_code as activity_code, sc.position,
    sc.curriculum_code as scene_code, sc.type::text, sc.content, r.session_id::text, d.class_name
  from (select distinct user_id, scene_id from unnest($1::uuid[], $2::uuid[]) as u(user_id, scene_id)) q
  join users u on u.id = q.user_id
  join schools s on s.id = u.school_id
  join academy_lrs l on l.academy_id = s.academy_id
  join activity_scenes sc on sc.id = q.scene_id
  join activities a on a.id = sc.activity_id
  left join responses r on r.user_id = q.user_id and r.scene_id = q.scene_id
  left join student_details d on d.user_id = q.user_id`;

/** A UUID (version 5 layout) derived from `text`: the same facts, the same id. */
export function derivedUuid(text: string): string {
  const h = createHash("sha1").update(`manabiya-xapi:${text}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** One attempt: the live session the answer was given in, or the person's self-paced work on the activity. */
const registrationOf = (row: AnswerRow) => derivedUuid(`${row.user_id}/${row.activity_id}/${row.session_id ?? "self"}`);

/** A statement made: made when its answer was saved (`createdAt`, its timestamp). */
type Made = StatementToStore & { verb: VerbName };

function make(row: AnswerRow, verb: VerbName, idOf: string, at: string, extra: Partial<StatementFacts>): Made {
  const id = derivedUuid(`${verb}/${idOf}`);
  const facts: StatementFacts = {
    id,
    verb,
    timestamp: at,
    base: publicUrl(),
    academyId: row.academy_id,
    person: { sourcedId: row.sourced_id!, name: row.include_names ? row.person_name : null },
    activity: { id: row.activity_id, title: row.title, curriculumCode: row.activity_code },
    registration: registrationOf(row),
    sessionId: row.session_id,
    className: row.class_name,
    ...extra,
  };
  return {
    id,
    academyId: row.academy_id,
    activityId: row.activity_id,
    userId: row.user_id,
    verb,
    statement: buildStatement(facts),
    createdAt: new Date(at),
  };
}

function answered(row: AnswerRow, parsed: Scene | null, a: WrittenAnswer): Made {
  const v = parsed ? verdictOf(parsed, a.answer) : null;
  const result = {
    response: responseText(a.answer),
    ...(v ? { success: v === "correct", correct: v === "correct" ? 1 : 0, total: 1 } : {}),
  };
  const scene = { id: row.scene_id, position: row.position, curriculumCode: row.scene_code };
  return make(row, "answered", `${a.userId}/${a.sceneId}/${a.revision}/${a.savedAt}`, a.savedAt, { scene, result });
}

/** `completed` when the person has answered every scene of the activity (its score: the scenes with a key). */
function completed(row: AnswerRow, at: string, done: Completion | null | undefined): Made | null {
  if (!done) return null;
  const result = { completion: true, ...(done.keyed > 0 ? { correct: done.correct, total: done.keyed } : {}) };
  return make(row, "completed", registrationOf(row), at, { result });
}

/**
 * The answers recorded together: what a slice's two reads return and its statements are held in memory at once, so a
 * fetch of a queue that fell far behind (RECORD_BATCH jobs, 20,000 answers: xapi-queue.ts) is recorded a slice at a
 * time within the workers' heap.
 */
const SLICE = 2000;

/**
 * Stores the statements the answers of `saves` make (each item the answers one save statement wrote, in the order
 * they were written), SLICE answers at a time; the academies whose LRS they are for. For each slice two queries read
 * what its answers need (each person's and scene's facts once) and one insert stores every statement, each made at the
 * moment its answer was saved (`created_at`, the statement's timestamp), so that the LRS receives them in the order
 * they were saved (lrs-queries.ts STATEMENT_ORDER_SQL).
 */
export async function recordAnswers(saves: WrittenAnswer[][]): Promise<string[]> {
  const answers = saves.flat();
  const academies = new Set<string>();
  for (let from = 0; from < answers.length; from += SLICE)
    for (const academyId of await recordSlice(answers.slice(from, from + SLICE))) academies.add(academyId);
  return [...academies];
}

async function recordSlice(answers: WrittenAnswer[]): Promise<string[]> {
  // a class's burst of saves first: this slice's log would make their commits wait (platform/ops/foreground.ts)
  await foregroundQuiet();
  const rows = await db().$queryRawUnsafe<AnswerRow[]>(
    ANSWERS_SQL,
    answers.map((a) => a.userId),
    answers.map((a) => a.sceneId),
  );
  const byKey = new Map(rows.filter((r) => r.sourced_id).map((r) => [`${r.user_id}/${r.scene_id}`, r]));
  const rowOf = (a: WrittenAnswer) => byKey.get(`${a.userId}/${a.sceneId}`);
  const completions = await completionsOf(
    [...byKey.values()].map((r) => ({ activityId: r.activity_id, userId: r.user_id })),
  );
  const sceneOf = sceneParser();
  const made: Made[] = [];
  for (const a of answers) {
    const row = rowOf(a);
    if (!row) continue;
    const done = completed(
      row,
      a.savedAt,
      completions.get(attemptKey({ activityId: row.activity_id, userId: row.user_id })),
    );
    const answer = answered(row, sceneOf(row.scene_id, row), a);
    made.push(make(row, "initialized", registrationOf(row), a.savedAt, {}), answer, ...(done ? [done] : []));
  }
  if (made.length === 0) return [];
  await storeStatements(made);
  return [...new Set(made.map((m) => m.academyId))];
}

/**
 * One statement however many (a column an array each, unlike a row's values a bind each), a stored id left as it is:
 * each statement's row with its JSON deflated (xapi-body.ts; as base64, decoded by the database), and for each new one
 * its place in the academy's waiting statements (rank: VERB_RANK_SQL).
 */
const INSERT_SQL = `
  with stored as (
    insert into xapi_statements (id, academy_id, activity_id, user_id, verb, body, created_at)
    select id, academy_id, activity_id, user_id, verb, decode(body, 'base64'), created_at
    from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[])
      as s(id, academy_id, activity_id, user_id, verb, body, created_at)
    on conflict (id) do nothing
    returning id, academy_id, created_at, verb
  )
  insert into xapi_statements_waiting (id, academy_id, created_at, rank)
  select id, academy_id, created_at, ${VERB_RANK_SQL} from stored`;

/** A statement to store: its row's facts and the statement itself. */
export interface StatementToStore {
  id: string;
  academyId: string;
  activityId: string;
  userId: string;
  verb: string;
  statement: object;
  /** its timestamp: the order the LRS receives the academy's statements in */
  createdAt: Date;
}

/**
 * Stores each statement of `all` once, the first of an id (an attempt's `initialized` comes with each answer), waiting
 * for its academy's LRS; one already stored is left as it is.
 */
export async function storeStatements(all: StatementToStore[]) {
  const ids = new Set<string>();
  const made = all.filter((m) => !ids.has(m.id) && ids.add(m.id));
  await db().$executeRawUnsafe(
    INSERT_SQL,
    made.map((m) => m.id),
    made.map((m) => m.academyId),
    made.map((m) => m.activityId),
    made.map((m) => m.userId),
    made.map((m) => m.verb),
    made.map((m) => packStatement(JSON.stringify(m.statement)).toString("base64")),
    made.map((m) => m.createdAt),
  );
}
