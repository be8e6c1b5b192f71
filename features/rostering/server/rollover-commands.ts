import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import type { RosterPlan } from "@/features/rostering/shared/types";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { rotateSigninCodes } from "@/features/people/server/signin-code-commands";
import { recordYearSeats } from "@/features/people/server/year-seat-record";
import { classesOf, readRolloverStudents, type RolloverStudent } from "./rollover-queries";
import { confirmsSchoolName, mayRollInto, planRollover } from "../shared/rollover-plan";
import type { RolloverInput } from "../shared/rollover-schema";
import { applyNextYearSet, SetRefused } from "./rollover-set";
import { endRunningSessions } from "@/features/activities/server/commands";
import { publishEnded, type SessionEnded } from "@/features/activities/server/session-events";

interface Ctx {
  schoolId: AuthorizedSchoolId;
  actorId: string;
}

export interface RolloverResult {
  year: number;
  promoted: number;
  graduated: number;
  archived: number;
  /** The students given a new card (their 組 changed), in class order: the manager prints them in one PDF. */
  reissuedIds: string[];
  /** False: nothing changed (a preview, or a set with problems: `roster.problems` says which). */
  applied: boolean;
  /** With next year's set: its plan (each listed student's new 年・組・番号, newcomers, who is disabled) or its problems. */
  roster?: RosterPlan;
}

export interface RolloverOptions {
  /** Next year's OneRoster set of this school (features/rostering/server/rollover-set.ts). */
  set?: RosterSet;
  /** The preview: everything is done and then undone, and the result says what would change. */
  dryRun?: boolean;
}

/** Thrown at the end of a preview to undo it, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly result: RolloverResult) {
    super("dry run");
  }
}

/** Thrown inside the transaction to undo it: next year's seats would clash. */
class SeatClash extends Error {}

/** Thrown inside the transaction to undo it: students would graduate and the school's name was not typed to confirm it. */
class NotConfirmed extends Error {}

/** Next year's 組 of each student who moves up, grade by grade (highest first). */
function movesByGrade(students: RolloverStudent[], input: RolloverInput) {
  const target = new Map(input.classMoves.map((m) => [`${m.grade}\u0000${m.className}`, m.to]));
  const byGrade = new Map<number, { ids: string[]; classes: string[]; changed: string[] }>();
  for (const s of students.filter((x) => x.grade < input.topGrade)) {
    const to = target.get(`${s.grade}\u0000${s.className}`) ?? s.className;
    const g = byGrade.get(s.grade) ?? { ids: [], classes: [], changed: [] };
    g.ids.push(s.userId);
    g.classes.push(to);
    if (to !== s.className) g.changed.push(s.userId);
    byGrade.set(s.grade, g);
  }
  return [...byGrade].sort(([a], [b]) => b - a);
}

const schoolName = async (tx: Prisma.TransactionClient, id: AuthorizedSchoolId) =>
  (await tx.school.findUniqueOrThrow({ where: { id }, select: { name: true } })).name;

async function moveStudents(
  tx: Prisma.TransactionClient,
  schoolId: AuthorizedSchoolId,
  students: RolloverStudent[],
  input: RolloverInput,
) {
  const graduates = students.filter((s) => s.grade >= input.topGrade).map((s) => s.userId);
  if (graduates.length > 0) {
    // graduates keep their last seat as history, no longer holding it; disabled (never deleted), their cards and sessions end
    await tx.studentDetail.updateMany({
      where: { userId: { in: graduates }, schoolId },
      data: { graduatedYear: input.expectedYear },
    });
    await tx.user.updateMany({
      where: { id: { in: graduates }, schoolId },
      data: { disabled: true, sessionVersion: { increment: 1 } },
    });
    await tx.signinCode.updateMany({
      where: { userId: { in: graduates }, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }
  const changed: string[] = [];
  // highest grade first: each grade moves into the one the previous statement emptied, so no seat is held twice on the way
  for (const [, g] of movesByGrade(students, input)) {
    await tx.$executeRaw`
      update student_details sd set grade = sd.grade + 1, class_name = m.to_class, updated_at = now()
      from unnest(${g.ids}::uuid[], ${g.classes}::text[]) as m(user_id, to_class)
      where sd.user_id = m.user_id and sd.school_id = ${schoolId}::uuid`;
    changed.push(...g.changed);
  }
  return { graduates, changed };
}

/**
 * The year-end rollover of one school, in one transaction: the school's year advances from
 * `expectedYear` (the version check: a second or concurrent apply finds the year moved and changes
 * nothing); students move up a grade (組 kept or mapped, numbers kept); the top grade graduates;
 * students whose 組 changed get new cards; the year's activities are archived under their year
 * (answers, results and exports stay). Refused when next year's seats would clash. With next year's
 * set (features/rostering/server/rollover-set.ts) the set then decides the seats, in the same transaction; with problems
 * nothing changes. A dry run does it all and undoes it (the preview of a set). A rollover that
 * graduates anyone is applied only with the school's name typed as `confirmName` (VALIDATION otherwise).
 */
export async function applyRollover(
  ctx: Ctx,
  input: RolloverInput,
  options: RolloverOptions = {},
): Promise<ActionResult<RolloverResult>> {
  const year = input.expectedYear + 1;
  if (!mayRollInto(year, new Date())) return fail("CONFLICT");
  // the archived activities' live sessions end with it; published once the rollover commits (never for a dry run)
  let ended: SessionEnded[] = [];
  try {
    const result = await db().$transaction(
      async (tx) => {
        const advanced = await tx.school.updateMany({
          where: { id: ctx.schoolId, currentYear: input.expectedYear },
          data: { currentYear: year },
        });
        if (advanced.count === 0) return fail("CONFLICT");
        const students = await readRolloverStudents(ctx.schoolId, tx);
        const plan = planRollover(classesOf(students), input.topGrade, input.classMoves);
        if (plan.clashes.length > 0) throw new SeatClash();
        if (
          plan.graduates > 0 &&
          !options.dryRun &&
          !confirmsSchoolName(input.confirmName ?? "", await schoolName(tx, ctx.schoolId))
        )
          throw new NotConfirmed();
        await recordYearSeats(tx, ctx.schoolId, input.expectedYear);
        const { graduates, changed } = await moveStudents(tx, ctx.schoolId, students, input);
        const fromSet = options.set
          ? await applyNextYearSet(tx, ctx.schoolId, options.set, students, graduates, ctx.actorId)
          : null;
        await rotateSigninCodes(tx, fromSet ? fromSet.changed : changed);
        const active = { schoolId: ctx.schoolId, status: "active" as const, academicYear: { lte: input.expectedYear } };
        const ids = (await tx.activity.findMany({ where: active, select: { id: true } })).map((a) => a.id);
        await tx.activity.updateMany({
          where: { id: { in: ids } },
          data: { status: "archived", archivedAt: new Date(), version: { increment: 1 } },
        });
        ended = await endRunningSessions(tx, ids);
        const reissuedIds = fromSet ? [...fromSet.changed, ...fromSet.joined] : changed;
        const result = {
          year,
          promoted: students.length - graduates.length,
          graduated: graduates.length,
          archived: ids.length,
          reissuedIds,
        };
        if (options.dryRun)
          throw new DryRun({ ...result, applied: false, ...(fromSet ? { roster: fromSet.plan } : {}) });
        await audit(
          {
            action: "school.rollover",
            actorId: ctx.actorId,
            schoolId: ctx.schoolId,
            targetType: "school",
            targetId: ctx.schoolId,
            meta: { from: input.expectedYear, topGrade: input.topGrade, withSet: Boolean(fromSet), ...result },
          },
          tx,
        );
        return ok({ ...result, applied: true, ...(fromSet ? { roster: fromSet.plan } : {}) });
      },
      { timeout: 60_000 },
    );
    ended.forEach(publishEnded);
    return result;
  } catch (error) {
    if (error instanceof SeatClash) return fail("VALIDATION", { classMoves: ["seatClash"] });
    if (error instanceof NotConfirmed) return fail("VALIDATION", { confirmName: ["notConfirmed"] });
    if (error instanceof DryRun) return ok(error.result);
    if (error instanceof SetRefused)
      return ok({ year, promoted: 0, graduated: 0, archived: 0, reissuedIds: [], applied: false, roster: error.plan });
    throw error;
  }
}
