import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { portOpen } from "../../scripts/lib/port-open";
import { debianBinary } from "./child-processes";

/**
 * Debian's PgBouncer (the `pgbouncer` package, 1.18 on Debian 12: no prepared-statement support) in
 * transaction mode in front of a PostgreSQL cluster, as an operator puts it before the app: a server
 * connection serves one transaction of one client, then the next client's. What a session keeps (a named
 * statement, a setting, an advisory lock, LISTEN) does not follow the client from one transaction to the next.
 */
export interface RunningPgBouncer {
  port: number;
  stop(): Promise<void>;
}

const INSTALL = "PgBouncer is missing: install Debian's pgbouncer (apt-get install pgbouncer; .ci/run does it).";

function config(dir: string, target: URL, port: number): string {
  const lines = [
    "[databases]",
    `* = host=${target.hostname} port=${target.port}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(dir, "userlist.txt")}`,
    "pool_mode = transaction",
    "max_client_conn = 1000",
    "default_pool_size = 20",
    "server_reset_query =",
    // settings sent at connection start (`options`, e.g. -c statement_timeout=…) are refused, as by 1.18
    // out of the box: an app behind a pooler keeps nothing in the server session
    "ignore_startup_parameters = extra_float_digits",
    "log_connections = 0",
    "log_disconnections = 0",
    "admin_users = ",
    // PgBouncer refuses to run as root: it becomes the cluster's own system user
    ...(process.getuid?.() === 0 ? ["user = postgres"] : []),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Starts PgBouncer on `port` in front of the cluster `clusterUrl` names (its user and password go into
 * PgBouncer's auth_file, which it uses towards the server; clients are trusted), in a temporary folder
 * removed by `stop()`. Fails with what to install when pgbouncer is missing.
 */
export async function startPgBouncer(clusterUrl: string, port: number): Promise<RunningPgBouncer> {
  const binary = debianBinary("/usr/sbin/pgbouncer", "pgbouncer", INSTALL);
  const target = new URL(clusterUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "manabiya-pgbouncer-"));
  chmodSync(dir, 0o755);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  writeFileSync(path.join(dir, "userlist.txt"), `"${user}" "${password}"\n`, { mode: 0o644 });
  writeFileSync(path.join(dir, "pgbouncer.ini"), config(dir, target, port), { mode: 0o644 });
  if (await portOpen(port))
    throw new Error(`Port ${port} is taken: PgBouncer for the tests listens on TEST_PG_PORT + 7.`);

  const output: string[] = [];
  const child: ChildProcess = spawn(binary, [path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const failed = () => new Error(`PgBouncer did not start on port ${port}:\n${output.join("").slice(-2000)}`);
  for (let i = 0; !(await portOpen(port)); i++) {
    if (child.exitCode !== null || i > 100) {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
      throw failed();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGINT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
