import "server-only";
import { db } from "@/lib/db";
import { type DisplayLanguage, defaultLanguageFor, isDisplayLanguage } from "./languages";

/** The language a person signs in to: their own (set by them or, for a student, by a teacher), else their role's default. */
export async function languageOfUser(userId: string): Promise<DisplayLanguage | null> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { role: true, displayLanguage: true } });
  if (!user) return null;
  return isDisplayLanguage(user.displayLanguage) ? user.displayLanguage : defaultLanguageFor(user.role);
}
