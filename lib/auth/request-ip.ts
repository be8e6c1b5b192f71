/** The client address as the first proxy saw it (X-Forwarded-For), else "unknown". Only a flood ceiling uses it. */
export function requestIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers.get("x-real-ip") || "unknown";
}
