import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { NextRequest } from "next/server";
import { createPrismaClient } from "@/platform/db/client";
import { openClient } from "@/platform/db/connect";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { recreateDatabase } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";

export const TEST_SIGNIN_CODE_KEY = "0f".repeat(32);

/** The run's migrated database (shared by the integration files; tests make their own rows). */
export function testDatabaseUrl(): string {
  return inject("databaseUrl");
}

export function testPrisma() {
  return createPrismaClient(testDatabaseUrl(), 4);
}

/** A new empty database on the test cluster (dropped with the cluster's data dir, or by the caller). */
export async function emptyDatabase(prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await recreateDatabase(inject("adminUrl"), name);
  return { name, url: `${inject("clusterBase")}${name}` };
}

export async function dropDatabase(name: string) {
  const client = await openClient(inject("adminUrl"));
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * A new migrated database for one describe block: made in beforeAll, dropped
 * in afterAll. Read `.prisma` / `.url` inside hooks and tests.
 */
export function freshDatabase(prefix: string) {
  const state = {} as { name: string; url: string; prisma: PrismaClient };
  beforeAll(async () => {
    Object.assign(state, await emptyDatabase(prefix));
    await migrate(state.url);
    state.prisma = createPrismaClient(state.url, 4);
  });
  afterAll(async () => {
    await state.prisma?.$disconnect();
    if (state.name) await dropDatabase(state.name);
  });
  return state;
}

/** Serves a pre-Next endpoint (the answer or the advance endpoint) on a free loopback port, as server/main.ts does. */
export async function serveEndpoint(endpoint: {
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
}): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => void endpoint.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A POST as a school's browser sends it (through the proxy that names the host), the Origin header when given. */
export interface PostCase {
  body: string;
  origin?: string;
}
const postHeaders = (c: PostCase, cookie: string, host: Record<string, string>) => ({
  "content-type": "application/json",
  ...host,
  ...(cookie ? { cookie } : {}),
  ...(c.origin ? { origin: c.origin } : {}),
});
/** Status, JSON body and headers of a reply, to compare the production endpoint's with the route handler's. */
export async function replyOf(res: Response) {
  return { status: res.status, body: await res.json(), headers: res.headers };
}
/** The request to a pre-Next endpoint served by serveEndpoint, behind a proxy for `host`. */
export async function postToEndpoint(port: number, host: string, path: string, cookie: string, c: PostCase) {
  return replyOf(
    await fetch(`http://127.0.0.1:${port}${path}`, {
      method: "POST",
      body: c.body,
      headers: postHeaders(c, cookie, { "x-forwarded-host": host }),
    }),
  );
}
/** The same request as the Next.js route handler gets it (its session read through ./next-headers-fake). */
export function routeRequest(host: string, path: string, cookie: string, c: PostCase): NextRequest {
  return new NextRequest(`https://${host}${path}`, {
    method: "POST",
    body: c.body,
    headers: postHeaders(c, cookie, { host }),
  });
}
