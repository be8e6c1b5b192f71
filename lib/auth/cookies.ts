/** next-auth's session cookie names (http and https). */
export const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

/** A scanned sign-in code between the QR URL and the sign-in POST (proxy.ts → signInWithCode). */
export const PENDING_CODE_COOKIE = "manabiya-pending-code";
