import { publicUrl } from "@/platform/env";

/**
 * The sign-in URL a QR card or PNG carries: the configured public address
 * (AUTH_URL) only, never the request's Host or the browser's location, so the
 * printed card and the downloaded PNG of a student always agree.
 */
export function signinCodeUrl(code: string, origin: string = publicUrl()): string {
  return `${origin}/auth/auth-with-code?code=${encodeURIComponent(code)}`;
}
