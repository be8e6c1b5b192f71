import "server-only";
import { db } from "@/lib/db";
import type { SigninErrorCode } from "./errors";
import { dummyPasswordHash, verifyPassword } from "./password";
import { signinInputSchema } from "./schema";

export type SigninResult =
  | { ok: true; user: { id: string; role: "student" | "teacher" | "manager" } }
  | { ok: false; code: SigninErrorCode };

/** Checks an e-mail and password against the database (argon2id). */
export async function checkPassword(input: unknown): Promise<SigninResult> {
  const parsed = signinInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: "invalidEmail" };
  const { email, password } = parsed.data;
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, role: true, passwordHash: true, disabled: true },
  });
  if (!user?.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), password); // same work as a real check
    return { ok: false, code: "userNotFound" };
  }
  if (!(await verifyPassword(user.passwordHash, password))) return { ok: false, code: "wrongPassword" };
  if (user.disabled) return { ok: false, code: "userDisabled" };
  await db().user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() }, select: { id: true } });
  return { ok: true, user: { id: user.id, role: user.role } };
}
