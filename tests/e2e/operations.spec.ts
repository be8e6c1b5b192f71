import { expect, test } from "@playwright/test";
import pg from "pg";
import { recreateDatabase } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";
import { BASE_URL, E2E_DATABASE_URL, E2E_PORT } from "./config";
import { AppInstance } from "./instance";

/**
 * The operational endpoints a load balancer or container runtime polls: no
 * session needed, nothing in the body but the state of each check.
 */
async function probe(base: string, path: string) {
  const res = await fetch(`${base}${path}`, { redirect: "manual" });
  return {
    status: res.status,
    cache: res.headers.get("cache-control"),
    body: (await res.json()) as Record<string, unknown>,
  };
}

test("operations: /healthz and /readyz answer without a session, uncached, with nothing but the checks' states", async () => {
  const health = await probe(BASE_URL, "/healthz");
  expect(health).toEqual({ status: 200, cache: "no-store", body: { status: "ok" } });
  const ready = await probe(BASE_URL, "/readyz");
  expect(ready).toEqual({
    status: 200,
    cache: "no-store",
    body: { status: "ok", database: "ok", migrations: "current", live: "ok" },
  });
});

test.describe("a database that lacks a migration of this build", () => {
  const name = "manabiya_behind";
  const url = E2E_DATABASE_URL.replace(/\/[^/]+$/, `/${name}`);
  const app = new AppInstance(E2E_PORT + 80, url);

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await recreateDatabase(E2E_DATABASE_URL.replace(/\/[^/]+$/, "/postgres"), name);
    await migrate(url);
    // as if the newest migration had not been applied yet
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `delete from "_prisma_migrations" where migration_name = (select max(migration_name) from "_prisma_migrations")`,
    );
    await client.end();
    await app.start();
  });
  test.afterAll(() => app.stop());

  test("operations: /readyz answers 503 'migrations pending' while /healthz stays 200", async () => {
    expect(await probe(app.url, "/readyz")).toEqual({
      status: 503,
      cache: "no-store",
      body: { status: "unavailable", database: "ok", migrations: "pending", live: "ok" },
    });
    expect((await probe(app.url, "/healthz")).status).toBe(200);
  });
});
