import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { Problem, RosterSet } from "@/features/rostering/shared/oneroster-model";
import { applySchoolWork, recordAppliedSet } from "@/features/rostering/server/commands";
import { planWithWork } from "@/features/rostering/server/plan";
import { importProblem } from "@/features/rostering/shared/problems";
import type { RosterPlan, SchoolWork } from "@/features/rostering/shared/types";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import type { RolloverStudent } from "./rollover-queries";

/** Thrown inside the rollover's transaction to undo it: the set has problems (the plan says which, with file, line and column). */
export class SetRefused extends Error {
  constructor(readonly plan: RosterPlan) {
    super("the next year's set has problems");
  }
}

export interface SetApplied {
  /** The set's plan against the school as it stood after moving up (what each student's 年・組・番号 becomes). */
  plan: RosterPlan;
  /** Students of the school whose 組 changed over the rollover: their cards are reissued. */
  changed: string[];
  /** Students who came with the set (newcomers, transfers from another school of the academy): they got new cards. */
  joined: string[];
}

/** The set names only the school rolling over: any other school (of this academy or not) is a problem at its row. */
function scopeProblems(set: RosterSet, work: SchoolWork[], schoolId: string): Problem[] {
  const others = work.filter((w) => w.schoolId !== schoolId);
  const problems = others.map((w) => {
    const org = set.orgs.find((o) => o.sourcedId === w.sourcedId);
    const role = set.roles.find((r) => r.orgSourcedId === w.sourcedId);
    return org || !role
      ? importProblem("otherSchool", "orgs.csv", org?.line ?? 0, "sourcedId")
      : importProblem("otherSchool", "roles.csv", role.line, "orgSourcedId");
  });
  if (!work.some((w) => w.schoolId === schoolId))
    problems.push(importProblem("otherSchool", "orgs.csv", set.orgs[0]?.line ?? 0, "sourcedId"));
  return problems;
}

/** A student the rollover has just graduated may not come back with next year's set (docs/adr/0071-next-years-roster-set.md). */
function graduateProblems(set: RosterSet, work: SchoolWork[], graduates: Set<string>): Problem[] {
  const back = work.flatMap((w) => [...w.update, ...w.move]).filter((x) => graduates.has(x.id));
  return back.map((x) =>
    importProblem(
      "graduateInSet",
      "users.csv",
      set.users.find((u) => u.sourcedId === x.target.sourcedId)?.line ?? 0,
      "sourcedId",
    ),
  );
}

/**
 * Next year's roster set of one school, inside the rollover's transaction after every class moved
 * up: the import's own plan (features/rostering/server/plan.ts) against the school as it now is, then the import's
 * own write (features/rostering/server/commands.ts). The set decides each listed student's 年・組・番号 (matched by
 * sourcedId), creates its newcomers, and (a bulk users file) disables the school's roster students
 * it leaves out, as every import does. Any problem: SetRefused, and the whole rollover is undone.
 */
export async function applyNextYearSet(
  tx: Prisma.TransactionClient,
  schoolId: AuthorizedSchoolId,
  set: RosterSet,
  before: RolloverStudent[],
  graduates: string[],
  actorId: string,
): Promise<SetApplied> {
  const { academyId } = await tx.school.findUniqueOrThrow({ where: { id: schoolId }, select: { academyId: true } });
  const { plan, work } = await planWithWork(academyId, set, tx);
  const problems = [
    ...plan.problems,
    ...scopeProblems(set, work, schoolId),
    ...graduateProblems(set, work, new Set(graduates)),
  ];
  if (problems.length > 0)
    throw new SetRefused({
      ...plan,
      problems: problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line),
    });
  const [w] = work;
  const summary = plan.schools[0];
  if (w && summary) await applySchoolWork(tx, academyId, w, summary, { actorId, via: "rollover" });
  await recordAppliedSet(tx, academyId, set);

  const was = new Map(before.map((s) => [s.userId, s.className]));
  const after = await tx.studentDetail.findMany({
    where: { userId: { in: [...was.keys()] }, graduatedYear: null, user: { disabled: false, schoolId } },
    select: { userId: true, className: true },
  });
  const changed = after.filter((a) => a.className !== was.get(a.userId)).map((a) => a.userId);
  const comers = [...(w?.create ?? []), ...(w?.move.map((x) => x.target) ?? [])]
    .filter((t) => t.role === "student")
    .map((t) => t.sourcedId);
  const joined = comers.length
    ? (
        await tx.user.findMany({
          where: { schoolId, role: "student", sourcedId: { in: comers } },
          select: { id: true },
        })
      ).map((u) => u.id)
    : [];
  return { plan, changed, joined };
}
