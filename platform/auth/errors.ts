/** Sign-in failure codes (docs/requirements.md §8 provider error kinds), translated under AuthErrors.*. */
export const SIGNIN_ERROR_CODES = [
  "invalidEmail",
  "wrongPassword",
  "invalidCredential",
  "userNotFound",
  "userDisabled",
  "tooManyRequests",
  "networkFailed",
  "authFailed",
  "invalidCode",
  "providerFailed",
  "wrongTenant",
  "wrongAcademy",
  "roleNotAllowed",
] as const;
export type SigninErrorCode = (typeof SIGNIN_ERROR_CODES)[number];

export function isSigninErrorCode(value: unknown): value is SigninErrorCode {
  return typeof value === "string" && (SIGNIN_ERROR_CODES as readonly string[]).includes(value);
}

/** A sign-in failure as it travels through next-auth's CredentialsSignin code: "code" or "code:minutes". */
export function encodeFailure(code: SigninErrorCode, retryMinutes?: number): string {
  return retryMinutes ? `${code}:${retryMinutes}` : code;
}

export function decodeFailure(value: unknown): { code: SigninErrorCode; retryMinutes: number } | null {
  if (typeof value !== "string") return null;
  const [code, minutes] = value.split(":");
  if (!isSigninErrorCode(code)) return null;
  const retryMinutes = Number(minutes ?? 0);
  return { code, retryMinutes: Number.isFinite(retryMinutes) && retryMinutes > 0 ? Math.min(retryMinutes, 60) : 15 };
}
