import "server-only";
import { db } from "@/platform/db";
import { type ActionResult, ok } from "@/platform/errors";
import type { DisplayLanguage } from "./languages";

/** A signed-in person's switch follows them to their next sign-in, on any device. */
export async function saveOwnLanguage(userId: string, lang: DisplayLanguage): Promise<ActionResult<null>> {
  await db().user.update({ where: { id: userId }, data: { displayLanguage: lang }, select: { id: true } });
  return ok(null);
}
