"use server";
import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { signIn, signOut } from "./config";
import { isSigninErrorCode, type SigninErrorCode } from "./errors";
import { areaOf, homeOf } from "./roles";
import { safeFromPath, signinInputSchema } from "./schema";

export interface SigninState {
  error: SigninErrorCode | null;
  email: string;
}

/** E-mail + password sign-in (the form on /signin). */
export async function signInWithPassword(_prev: SigninState, form: FormData): Promise<SigninState> {
  const email = String(form.get("email") ?? "");
  const parsed = signinInputSchema.safeParse({ email, password: form.get("password") });
  if (!parsed.success) return { error: "invalidEmail", email };
  try {
    await signIn("password", { email: parsed.data.email, password: parsed.data.password, redirect: false });
  } catch (error) {
    if (error instanceof CredentialsSignin && isSigninErrorCode(error.code)) return { error: error.code, email };
    if (error instanceof AuthError) return { error: "authFailed", email };
    throw error;
  }
  const user = await db().user.findUnique({ where: { email: parsed.data.email }, select: { role: true } });
  if (!user) return { error: "authFailed", email };
  const from = safeFromPath(form.get("from"));
  redirect(from && areaOf(from) === user.role ? from : homeOf(user.role));
}

export async function signOutAction(): Promise<void> {
  try {
    await signOut({ redirect: false });
  } catch (error) {
    console.error("sign-out failed", error);
  }
  redirect("/signin");
}
