import "server-only";
import { db } from "@/platform/db";
import { type DisplayLanguage, defaultLanguageFor, isDisplayLanguage } from "./languages";

/**
 * The language a person signs in to: their own (set by them or, for a student, by a teacher), else
 * `chosenHere` (chosen on this device before sign-in; `own: false`: it is not theirs yet), else their role's default.
 */
export async function languageOfUser(
  userId: string,
  chosenHere: DisplayLanguage | null = null,
): Promise<{ lang: DisplayLanguage; own: boolean } | null> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { role: true, displayLanguage: true } });
  if (!user) return null;
  if (isDisplayLanguage(user.displayLanguage)) return { lang: user.displayLanguage, own: true };
  return { lang: chosenHere ?? defaultLanguageFor(user.role), own: false };
}
