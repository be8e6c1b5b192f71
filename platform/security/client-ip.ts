import { randomBytes } from "node:crypto";

/**
 * The client's address for sign-in throttling, decided once per request by
 * the production server (server/main.ts) from what it can trust: the
 * socket's address, or — behind TRUSTED_PROXY_HOPS reverse proxies that each
 * append the address they saw to X-Forwarded-For (nginx:
 * `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;`) — the entry
 * that many places from the end. Whatever a client writes further left is
 * ignored. The server hands it to Next.js in a header whose name is random
 * per process, so a client cannot send it; without the production server
 * (`next dev`) every request is "unknown", which only the flood ceiling reads.
 */
const holder = globalThis as unknown as { manabiyaClientIpHeader?: string };

/** Called once by the production server: the header it will set on every request. */
export function claimClientIpHeader(): string {
  holder.manabiyaClientIpHeader ??= `x-manabiya-ip-${randomBytes(12).toString("hex")}`;
  return holder.manabiyaClientIpHeader;
}

function normalise(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}

/** The client address: `hops` entries from the end of X-Forwarded-For, else the socket's address. */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  hops: number,
): string {
  const socket = socketAddress ? normalise(socketAddress) : "unknown";
  if (hops <= 0 || forwardedFor === undefined) return socket;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const entry = entries[entries.length - hops];
  return entry && /^[0-9a-f.:]{2,45}$/i.test(entry) ? normalise(entry) : socket;
}

/** The address the production server decided for this request, or "unknown". */
export function requestIp(headers: Pick<Headers, "get">): string {
  const name = holder.manabiyaClientIpHeader;
  return (name && headers.get(name)) || "unknown";
}

/** Where a request came from, as the sign-in log keeps it: the decided address and the User-Agent header. */
export interface RequestClient {
  ip: string;
  userAgent: string | null;
}

/** The client of a request (no headers: "unknown", no user agent). */
export function requestClient(headers: Pick<Headers, "get"> | undefined): RequestClient {
  return { ip: headers ? requestIp(headers) : "unknown", userAgent: headers?.get("user-agent") ?? null };
}
