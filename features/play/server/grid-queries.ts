import "server-only";
import { db } from "@/platform/db";
import { drawingPaths } from "@/features/scenes/shared/drawing-outline";
import { drawingAnswerSchema } from "@/features/scenes/shared/drawing-schema";
import { shownName, type ShownName } from "@/platform/names/person-name";
import { type GridState, gridStateOf } from "../shared/grid-state";
import { PRESENCE_WINDOW_MS } from "./student-state";
import { type SchoolClass, sortClasses } from "@/features/people/shared/class-key";

export type { GridState } from "../shared/grid-state";

/** One student in the teacher's "who is still working" grid (staff only: names never reach a student). */
export interface GridStudent {
  id: string;
  grade: number | null;
  className: string | null;
  number: number | null;
  name: ShownName | null;
  state: GridState;
}

export interface LiveGrid {
  sessionId: string;
  sceneId: string | null;
  /** The class the session is run for; null: the whole school (then only students who joined or answered are listed). */
  klass: { grade: number; className: string } | null;
  students: GridStudent[];
}

/** A grid lists at most this many students (a class is 40; a whole-school session lists who joined). */
export const GRID_MAX_STUDENTS = 400;

interface GridRow {
  id: string;
  grade: number | null;
  class_name: string | null;
  number: number | null;
  name: string | null;
  name_kana: string | null;
  nickname: string | null;
  seen_at: Date | null;
  answered: boolean;
}

/**
 * The students of a running session's class and their state on its current scene
 * (features/play/shared/grid-state.ts), sorted by 年・組・番号, in ONE query. `schoolId` is
 * the authorised school: a session of another school's activity reads nothing. `sessionId`: the
 * session (several classes may run the activity at once); null: the activity's only running one.
 */
export async function liveGrid(
  schoolId: string,
  activityId: string,
  sessionId: string | null = null,
): Promise<LiveGrid | null> {
  const sessions = await db().$queryRaw<
    { id: string; current_scene_id: string | null; grade: number | null; class_name: string | null }[]
  >`
    select gs.id::text, gs.current_scene_id::text, gs.grade, gs.class_name
    from guide_sessions gs join activities a on a.id = gs.activity_id
    where gs.activity_id = ${activityId}::uuid and a.school_id = ${schoolId}::uuid and gs.ended_at is null and a.mode = 'guide'
      -- the session named, else the activity's only running one (several classes may run it at once)
      and (case when ${sessionId}::uuid is null
             then not exists (select 1 from guide_sessions o where o.activity_id = gs.activity_id and o.ended_at is null and o.id <> gs.id)
             else gs.id = ${sessionId}::uuid end)
    limit 1`;
  const session = sessions[0];
  if (!session) return null;
  const rows = await db().$queryRaw<GridRow[]>`
    select u.id::text, d.grade, d.class_name, d.number, u.name, u.name_kana, u.nickname, p.seen_at,
           exists (select 1 from responses r where r.user_id = u.id and r.scene_id = ${session.current_scene_id}::uuid) as answered
    from users u
    join student_details d on d.user_id = u.id
    left join guide_presence p on p.session_id = ${session.id}::uuid and p.user_id = u.id
    where u.school_id = ${schoolId}::uuid and u.role = 'student' and not u.disabled
      and (case when ${session.class_name}::text is null
             then p.user_id is not null
                  or exists (select 1 from responses r where r.user_id = u.id and r.scene_id = ${session.current_scene_id}::uuid)
             else d.grade = ${session.grade}::int and d.class_name = ${session.class_name}::text end)
    order by d.grade nulls last, d.class_name nulls last, d.number nulls last, u.name
    limit ${GRID_MAX_STUDENTS}`;
  const now = Date.now();
  return {
    sessionId: session.id,
    sceneId: session.current_scene_id,
    klass:
      session.grade !== null && session.class_name !== null
        ? { grade: session.grade, className: session.class_name }
        : null,
    students: rows.map((r) => ({
      id: r.id,
      grade: r.grade,
      className: r.class_name,
      number: r.number,
      name: shownName({ name: r.name, nameKana: r.name_kana, nickname: null }),
      state: gridStateOf({ answered: r.answered, seenAt: r.seen_at?.getTime() ?? null }, now, PRESENCE_WINDOW_MS),
    })),
  };
}

/** A student's answer so far to the running session's current scene (null: not answered yet). */
export interface AnswerNow {
  studentId: string;
  sceneId: string;
  answer: unknown;
  late: boolean;
  /** The answer (for the projector's star) and whether it is starred in this session. */
  responseId: string | null;
  starred: boolean;
  /** A drawing, outlined on the server (features/scenes/shared/drawing-outline.ts): the console gets paths, not the drawing code. */
  drawing: { strokes: number; paths: { d: string; color: string }[] } | null;
}

/**
 * The latest saved answer of one of the school's students (`schoolId` authorised) to the current
 * scene of the activity's running session (the one named, else the one open to the student's class);
 * null when there is no such session or student.
 */
export async function studentAnswerNow(
  schoolId: string,
  activityId: string,
  studentId: string,
  sessionId?: string,
): Promise<AnswerNow | null> {
  const details = await db().studentDetail.findUnique({
    where: { userId: studentId },
    select: { grade: true, className: true },
  });
  const open =
    details?.grade != null && details.className
      ? [{ className: null }, { grade: details.grade, className: details.className }]
      : [{ className: null }];
  const session = await db().guideSession.findFirst({
    where: {
      activityId,
      endedAt: null,
      activity: { schoolId, mode: "guide" },
      ...(sessionId ? { id: sessionId } : { OR: open }),
    },
    select: { id: true, currentSceneId: true },
  });
  const student = await db().user.findFirst({
    where: { id: studentId, schoolId, role: "student" },
    select: { id: true },
  });
  if (!session?.currentSceneId || !student) return null;
  const row = await db().response.findUnique({
    where: { userId_sceneId: { userId: studentId, sceneId: session.currentSceneId } },
    select: {
      id: true,
      answer: true,
      late: true,
      scene: { select: { type: true } },
      projectorStars: { where: { sessionId: session.id }, select: { responseId: true } },
    },
  });
  const parsed = row?.scene.type === "drawing" ? drawingAnswerSchema.safeParse(row.answer) : null;
  return {
    studentId,
    sceneId: session.currentSceneId,
    answer: row && row.scene.type !== "drawing" ? row.answer : null,
    late: Boolean(row?.late),
    responseId: row?.id ?? null,
    starred: Boolean(row?.projectorStars.length),
    drawing: parsed?.success ? { strokes: parsed.data.strokes.length, paths: drawingPaths(parsed.data) } : null,
  };
}

/** The school's classes (組) from its students' data, for the guide screen's class choice. */
export async function schoolClasses(schoolId: string): Promise<{ grade: number; className: string }[]> {
  const rows = await db().$queryRaw<{ grade: number; class_name: string }[]>`
    select distinct d.grade, d.class_name from student_details d join users u on u.id = d.user_id
    where u.school_id = ${schoolId}::uuid and u.role = 'student' and not u.disabled and d.grade is not null and d.class_name is not null
    limit 200`;
  return sortClasses(rows.map((r) => ({ grade: r.grade, className: r.class_name })));
}

/** The class a teacher of the school is 担任 of (the roster's homeroom, the first in school order); null: none. */
export async function homeroomOf(schoolId: string, teacherId: string): Promise<SchoolClass | null> {
  const rows = await db().rosterClass.findMany({
    where: { schoolId, homeroomTeacherId: teacherId, grade: { not: null } },
    select: { grade: true, className: true },
    take: 20,
  });
  return (
    sortClasses(rows.flatMap((r) => (r.grade === null ? [] : [{ grade: r.grade, className: r.className }])))[0] ?? null
  );
}
