/** Sign-in failure codes (SPEC.md §8 provider error kinds), translated under AuthErrors.*. */
export const SIGNIN_ERROR_CODES = [
  "invalidEmail",
  "wrongPassword",
  "invalidCredential",
  "userNotFound",
  "userDisabled",
  "tooManyRequests",
  "networkFailed",
  "authFailed",
] as const;
export type SigninErrorCode = (typeof SIGNIN_ERROR_CODES)[number];

export function isSigninErrorCode(value: unknown): value is SigninErrorCode {
  return typeof value === "string" && (SIGNIN_ERROR_CODES as readonly string[]).includes(value);
}
