import "server-only";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { MAX_SCHOOL_WORDS } from "../shared/furigana-words";

/** Bounds one school's roster read for readings (a large school has ~1,500 people). */
const MAX_ROSTER = 5_000;

/** The names and their kana of the school's people (students, teachers), for readings of names. */
export async function listRosterReadings(
  school: AuthorizedSchoolId,
): Promise<{ name: string | null; nameKana: string | null }[]> {
  return db().user.findMany({
    where: { schoolId: school, disabled: false, name: { not: null }, nameKana: { not: null } },
    select: { name: true, nameKana: true },
    orderBy: { id: "asc" },
    take: MAX_ROSTER,
  });
}

/** The school's own word list (features/activities/server/furigana-word-commands.ts), bounded there. */
export async function listSchoolReadings(school: AuthorizedSchoolId): Promise<{ base: string; reading: string }[]> {
  return db().schoolReading.findMany({
    where: { schoolId: school },
    select: { base: true, reading: true },
    take: MAX_SCHOOL_WORDS,
  });
}
