import { SESSION_OPEN_SQL } from "@/features/play/shared/klass";

/**
 * The SQL of the answer writer (features/play/server/answer-writer.ts): the one statement that checks and writes a
 * batch of saves, the read of the scenes whose answer checkers it builds, and the connection settings
 * it runs with. What each column and refusal means: writer.ts.
 */

/** What the statement answers per save: the refusal, or the row written, or the row that stays. */
export interface OutcomeRow {
  i: number;
  refusal: string | null;
  activity_id: string | null;
  guided: boolean;
  written_revision: number | null;
  written_at: Date | string | null;
  current_revision: number | null;
  current_key: string | null;
  current_at: Date | string | null;
  /** the stored answer when it is not this save's (null when it answers an earlier version of the scene) */
  current_answer: unknown;
}

/**
 * The session settings of a connection that runs the save statement (features/play/server/answer-endpoint.ts's pool): a
 * generic plan spares PostgreSQL planning every batch. It is made once per connection and kept while the
 * tables grow, so every lookup in the statement is an index probe by key (LATERAL … LIMIT 1), never a join
 * the planner may serve with a scan while a table is small (features/play/tests/answer-plan.integration.test.ts).
 */
export const WRITER_PG_OPTIONS = "-c plan_cache_mode=force_generic_plan";

/**
 * How long after a countdown's zero a save is still on time (s): a save sent at zero is in flight for a
 * moment (a slow school network, a batch waiting for the one before it). docs/security.md.
 */
export const TIMER_GRACE_SECONDS = 2;

export const SAVE_SQL = `
  with req as (
    select * from unnest($1::int[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::text[], $9::text[], $10::text[], $11::int[])
      as r(i, user_id, activity_id, scene_id, mode, answer, revision, key, content_version, answer_error, session_version)
  ),
  acts as materialized (
    select a.id, a.mode::text as mode, a.school_id, a.actor_type::text as actor_type, a.self_open_scenes, a.allow_retries,
      array(select x.id from activity_scenes x where x.activity_id = a.id order by x.position) as scene_ids
    from activities a
    where a.id = any(array(select distinct activity_id from req)) and a.status = 'active'
  ),
  chk as (
    select r.i, r.user_id, r.scene_id, r.mode, r.answer, r.revision, r.key, a.id as activity_id, gs.id as session_id, d.counterbalance_group as grp,
      -- the scene's content version, read from the row locked below and checked by xmin: the version this answer was checked against
      sc.version as scene_version,
      -- a change to an answer whose verdict or key was shown (to the scene's current version), where the teacher allows
      -- retries: kept as an attempt beside it (the answer shown stays the one marked); without retries, refused below
      coalesce(ex.revealed_at is not null and ex.scene_version = sc.version and ex.idempotency_key <> r.key, false) as attempt, ex.id as response_id,
      -- after the scene's countdown (and the grace for saves in flight): kept all the same, marked late (a timer that
      -- does not close answers; one that does refuses them below)
      coalesce(r.mode = 'guide' and gs.timer_scene_id = r.scene_id and now() > gs.timer_ends_at + interval '${TIMER_GRACE_SECONDS} seconds', false) as late,
      case
        when u.id is null or u.disabled or r.session_version <> u.session_version then 'unauthenticated'
        when u.role = 'manager' or u.school_id is null then 'forbidden'
        when r.mode = 'guide' and u.role <> 'student' then 'forbidden'
        when a.id is null or sc.id is null then 'activityNotFound'
        when r.mode = 'self' and a.mode <> 'self' then 'notSelfMode'
        -- only the running session of the student's own class (or the whole school's) is theirs: another class's
        -- is, for this student, no session (docs/adr/0060-live-sessions-for-one-class.md, docs/adr/0061-several-classes-at-once.md)
        when r.mode = 'guide' and (a.mode <> 'guide' or gs.id is null) then 'sessionNotRunning'
        when r.mode = 'guide' and gs.current_scene_id is distinct from r.scene_id then 'notCurrentScene'
        when r.mode = 'guide' and r.scene_id = any(coalesce(gs.locked_scene_ids, '{}')) then 'locked'
        -- a countdown that closes answers: past zero (and the grace), nothing new for the scene in this session
        when r.mode = 'guide' and gs.timer_locks and gs.timer_scene_id = r.scene_id and now() > gs.timer_ends_at + interval '${TIMER_GRACE_SECONDS} seconds' then 'timeUp'
        -- its verdict or key was shown to the respondent: the stored answer is final (a retry of the very save stored
        -- is answered as before; an answer to an earlier version of the scene is not: the new question is answered
        -- anew); ON CONFLICT below re-checks it against a reveal committed after this snapshot
        when ex.revealed_at is not null and ex.scene_version = sc.version and ex.idempotency_key <> r.key and not a.allow_retries then 'answerFinal'
        -- pacing: the first self_open_scenes scenes of the order the respondent sees (as position below) are open
        when r.mode = 'self' and a.self_open_scenes is not null and (case
          when o.scene_ids is not null and cardinality(o.scene_ids) = cardinality(a.scene_ids) and o.scene_ids @> a.scene_ids
            then array_position(o.scene_ids, r.scene_id)
          else array_position(a.scene_ids, r.scene_id)
        end) > a.self_open_scenes then 'notOpenYet'
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
    -- FOR KEY SHARE: an edit of the scene locked FOR UPDATE and not yet committed is waited for, and its new row
    -- (another xmin: sceneChanged, the answer checked again) is what is compared, also when no foreign key check
    -- would wait (a changed answer is an UPDATE of its row); the insert's own foreign key check takes the same lock
    left join lateral (select sc.id, sc.xmin, sc.version from activity_scenes sc where sc.id = r.scene_id and sc.activity_id = a.id limit 1 for key share) sc on true
    left join lateral (select d.counterbalance_group, d.grade, d.class_name from student_details d where d.user_id = r.user_id limit 1) d on true
    left join lateral (select o.scene_ids from activity_scene_orders o where o.activity_id = a.id and o."group" = d.counterbalance_group limit 1) o on true
    -- the running session open to the student (one at most: the whole school's excludes every class's, features/play/server/session-commands.ts);
    -- looked up for live saves only (a session runs only in guide mode: a self-paced save is never in one)
    left join lateral (
      select g.id, g.current_scene_id, g.locked_scene_ids, g.timer_scene_id, g.timer_ends_at, g.timer_locks from guide_sessions g
      where r.mode = 'guide' and g.activity_id = a.id and g.ended_at is null and ${SESSION_OPEN_SQL("g", "d")} limit 1
    ) gs on true
    left join lateral (select x.id, x.revealed_at, x.idempotency_key, x.scene_version from responses x where x.user_id = r.user_id and x.scene_id = r.scene_id limit 1) ex on true
  ),
  ins as (
    insert into responses (activity_id, scene_id, user_id, answer, scene_position, counterbalance_group, mode, session_id, client_revision, idempotency_key, late, scene_version)
    select activity_id, scene_id, user_id, answer, position, grp, mode::"ResponseMode", case when mode = 'guide' then session_id end, revision, key, late, scene_version
    from chk where refusal is null and not attempt
    on conflict (user_id, scene_id) do update set
      answer = excluded.answer, scene_position = excluded.scene_position, counterbalance_group = excluded.counterbalance_group,
      mode = excluded.mode, session_id = excluded.session_id, client_revision = excluded.client_revision,
      idempotency_key = excluded.idempotency_key, late = excluded.late, scene_version = excluded.scene_version, updated_at = now(),
      revealed_at = null
    where responses.client_revision < excluded.client_revision and (responses.revealed_at is null or responses.scene_version <> excluded.scene_version)
    returning user_id, scene_id, client_revision, updated_at
  ),
  att as (
    insert into response_attempts (response_id, answer, client_revision, idempotency_key)
    select response_id, answer, revision, key from chk where refusal is null and attempt
    on conflict (response_id, idempotency_key) do nothing
    returning response_id, client_revision, created_at
  )
  select c.i, c.refusal, c.activity_id::text, (c.mode = 'guide') as guided,
    coalesce(ins.client_revision, att.client_revision, pa.client_revision) as written_revision, coalesce(ins.updated_at, att.created_at, pa.created_at) as written_at,
    cur.client_revision as current_revision, cur.idempotency_key as current_key, cur.updated_at as current_at,
    case when cur.idempotency_key is distinct from c.key and cur.scene_version is not distinct from c.scene_version then cur.answer end as current_answer
  from chk c
  left join ins on ins.user_id = c.user_id and ins.scene_id = c.scene_id
  left join att on c.attempt and att.response_id = c.response_id
  -- an attempt sent again (the same key): answered as the first time
  left join lateral (
    select pa.client_revision, pa.created_at from response_attempts pa
    where c.refusal is null and c.attempt and att.response_id is null and pa.response_id = c.response_id and pa.idempotency_key = c.key limit 1
  ) pa on true
  -- the row that stays (a retry, an older revision): probed by its key, never a join over the whole table
  left join lateral (
    select cur.client_revision, cur.idempotency_key, cur.updated_at, cur.answer, cur.scene_version from responses cur
    where c.refusal is null and not c.attempt and ins.user_id is null and cur.user_id = c.user_id and cur.scene_id = c.scene_id limit 1
  ) cur on true`;

// xmin: the scene row's version (it changes with every update of the row), a cheap stand-in for its content
export const SCENES_SQL = `select id::text, type::text, content::text, xmin::text as version from activity_scenes where id = any($1::uuid[])`;
