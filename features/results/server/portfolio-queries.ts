import "server-only";
import { z } from "zod";
import { db } from "@/platform/db";
import { containsPattern, searchText } from "@/platform/db/query-text";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { staffMarkSelect } from "@/features/results/server/mark-queries";
import { scenesInOrder } from "@/features/play/shared/answer-order";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { seatInYearJoin } from "@/features/people/server/year-seat";
import { asAnswered } from "../shared/versions";

export const portfolioQuery = z.object({
  q: searchText(100).optional().catch(undefined),
  sort: z.enum(["class", "name", "activities", "last"]).catch("class"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
});
export type PortfolioQuery = z.infer<typeof portfolioQuery>;

/** The school's students with how many activities they answered and when last (sorted and searched in SQL). */
export async function listPortfolios(school: AuthorizedSchoolId, q: PortfolioQuery) {
  const search = q.q ? containsPattern(q.q) : null;
  const dir = q.dir === "desc" ? "desc" : "asc";
  const order = {
    class: `sd.grade ${dir}, sd.class_name ${dir}, sd.number ${dir}`,
    name: `u.name_kana ${dir} nulls last, u.name ${dir}`,
    activities: `activities ${dir}, sd.grade, sd.class_name, sd.number`,
    last: `last_at ${dir} nulls last, sd.grade, sd.class_name, sd.number`,
  }[q.sort];
  const rows = await db().$queryRawUnsafe<
    {
      id: string;
      name: string | null;
      name_kana: string | null;
      nickname: string | null;
      grade: number;
      class_name: string;
      number: number;
      activities: number;
      last_at: Date | null;
      last_title: string | null;
    }[]
  >(
    `select u.id, u.name, u.name_kana, u.nickname, sd.grade, sd.class_name, sd.number,
            count(distinct r.activity_id)::int as activities, max(r.updated_at) as last_at,
            (select a.title from responses r2 join activities a on a.id = r2.activity_id
              where r2.user_id = u.id and a.school_id = $1::uuid order by r2.updated_at desc limit 1) as last_title
     from users u join student_details sd on sd.user_id = u.id
     left join (responses r join activities ra on ra.id = r.activity_id and ra.school_id = $1::uuid) on r.user_id = u.id
     where u.school_id = $1::uuid and u.role = 'student'
       and ($2::text is null or u.name ilike $2 or u.name_kana ilike $2 or u.nickname ilike $2)
     group by u.id, sd.grade, sd.class_name, sd.number
     order by ${order}
     limit 2000`,
    school,
    search,
  );
  return rows;
}

/** One student of the school (null when not theirs). */
export function schoolStudent(school: AuthorizedSchoolId, studentId: string) {
  if (!z.uuid().safeParse(studentId).success) return Promise.resolve(null);
  return db().user.findFirst({
    where: { id: studentId, schoolId: school, role: "student" },
    select: {
      id: true,
      name: true,
      nameKana: true,
      nickname: true,
      student: { select: { grade: true, className: true, number: true, counterbalanceGroup: true } },
    },
  });
}

const activitySelect = {
  id: true,
  title: true,
  academicYear: true,
  scenes: {
    select: {
      id: true,
      type: true,
      content: true,
      position: true,
      version: true,
      versions: { select: { version: true, content: true } },
    },
  },
  sceneOrders: { select: { group: true, sceneIds: true } },
} satisfies Prisma.ActivitySelect;

/** A student's answers to one activity, in the scene order they saw, with when and how each was answered. */
export async function studentResponses(school: AuthorizedSchoolId, activityId: string, studentId: string) {
  const [student, activity] = await Promise.all([
    schoolStudent(school, studentId),
    z.uuid().safeParse(activityId).success
      ? db().activity.findFirst({ where: { id: activityId, schoolId: school }, select: activitySelect })
      : null,
  ]);
  if (!student || !activity) return null;
  const responses = await db().response.findMany({
    where: { activityId, userId: studentId },
    select: {
      id: true,
      sceneId: true,
      answer: true,
      mode: true,
      updatedAt: true,
      late: true,
      sceneVersion: true,
      mark: { select: staffMarkSelect },
    },
  });
  const scenes = asAnswered(activity.scenes, responses);
  return {
    student,
    activity,
    scenes: scenesInOrder(scenes, activity.sceneOrders, student.student?.counterbalanceGroup ?? null),
    responses,
  };
}

/** The respondents of an activity in class order (for previous/next student). */
export async function respondentIds(school: AuthorizedSchoolId, activityId: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    select u.id from users u join activities a on a.id = ${activityId}::uuid and a.school_id = ${school}::uuid
    ${seatInYearJoin("u.id", "a.academic_year")}
    where u.school_id = ${school}::uuid and u.role = 'student'
      and exists (select 1 from responses r where r.user_id = u.id and r.activity_id = ${activityId}::uuid)
    order by sd.grade, sd.class_name, sd.number`;
  return rows.map((r) => r.id);
}

/** Every activity a student took, newest first, with their answers in the order they saw the scenes and the teachers' marks on them. */
export async function portfolioOf(school: AuthorizedSchoolId, studentId: string) {
  const student = await schoolStudent(school, studentId);
  if (!student) return null;
  const responses = await db().response.findMany({
    where: { userId: studentId, activity: { schoolId: school } },
    select: {
      activityId: true,
      sceneId: true,
      answer: true,
      mode: true,
      updatedAt: true,
      sceneVersion: true,
      mark: { select: { verdict: true, comment: true, answerAt: true } },
    },
  });
  const ids = [...new Set(responses.map((r) => r.activityId))];
  const activities = await db().activity.findMany({ where: { id: { in: ids } }, select: activitySelect });
  const last = (id: string) =>
    Math.max(...responses.filter((r) => r.activityId === id).map((r) => r.updatedAt.getTime()));
  return {
    student,
    activities: activities
      .map((a) => ({
        ...a,
        lastAt: new Date(last(a.id)),
        scenes: scenesInOrder(
          asAnswered(
            a.scenes,
            responses.filter((r) => r.activityId === a.id),
          ),
          a.sceneOrders,
          student.student?.counterbalanceGroup ?? null,
        ),
        responses: responses.filter((r) => r.activityId === a.id),
      }))
      .sort((a, b) => b.lastAt.getTime() - a.lastAt.getTime()),
  };
}
