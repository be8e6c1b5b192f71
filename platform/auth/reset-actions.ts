"use server";
import { getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getPlainText } from "@/platform/i18n/server";
import { requestPasswordReset, resetPasswordWithToken } from "./password-reset";
import { emailSchema, newPasswordSchema } from "./schema";
import { errorField, log } from "@/platform/ops/log";
import { requestClient } from "@/platform/security/client-ip";

export interface ForgotState {
  status: "idle" | "sent" | "invalidEmail";
}

/** "Forgot password": always the same answer, whether or not the account exists. */
export async function requestReset(_prev: ForgotState, form: FormData): Promise<ForgotState> {
  const parsed = emailSchema.safeParse(form.get("email"));
  if (!parsed.success) return { status: "invalidEmail" };
  const t = await getTranslations("Reset");
  const plain = await getPlainText();
  try {
    await requestPasswordReset(
      parsed.data,
      (url) => ({ subject: plain(t("mailSubject")), text: plain(t("mailBody", { url })) }),
      requestClient(await headers()),
    );
  } catch (error) {
    log().error({ event: "password.reset.failed", ...errorField(error) }, "password reset request failed");
  }
  return { status: "sent" };
}

export interface ResetState {
  error: "tooShort" | "mismatch" | "expiredActionCode" | null;
}

const resetSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  password: newPasswordSchema,
  confirm: z.string(),
});

export async function resetPassword(_prev: ResetState, form: FormData): Promise<ResetState> {
  const input = { token: form.get("token"), password: form.get("password"), confirm: form.get("confirm") };
  const parsed = resetSchema.safeParse(input);
  if (!parsed.success) {
    const bad = new Set(parsed.error.issues.map((i) => i.path[0]));
    return { error: bad.has("token") ? "expiredActionCode" : "tooShort" };
  }
  if (parsed.data.password !== parsed.data.confirm) return { error: "mismatch" };
  const result = await resetPasswordWithToken(parsed.data.token, parsed.data.password, requestClient(await headers()));
  if (result !== "ok") return { error: result };
  redirect("/signin?notice=passwordReset");
}
