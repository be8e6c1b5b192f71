/** next-auth's session cookie names (http and https). */
export const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
