import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { createPrismaClient } from "@/lib/db-client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
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
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: inject("adminUrl") });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.end();
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

/** Serves a pre-Next endpoint (the answer or the advance endpoint) on a free loopback port, as scripts/server.ts does. */
export async function serveEndpoint(endpoint: { handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> }): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => void endpoint.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
