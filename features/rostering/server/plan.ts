import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import { loadRosterState } from "./queries";
import { computePlan } from "./plan-core";
import type { RosterPlan, SchoolWork } from "../shared/types";

/**
 * The dry run of an import into an academy: per school what would be created, changed,
 * moved and disabled, and every problem (file, line, column). Writes nothing.
 */
export async function planRosterImport(academyId: string, set: RosterSet): Promise<RosterPlan> {
  return (await planWithWork(academyId, set)).plan;
}

/** The plan and the work behind it, read in the caller's transaction when given (features/rostering/server/rollover-set.ts). */
export async function planWithWork(
  academyId: string,
  set: RosterSet,
  tx?: Prisma.TransactionClient,
): Promise<{ plan: RosterPlan; work: SchoolWork[] }> {
  return computePlan(await loadRosterState(academyId, set, tx), set);
}
