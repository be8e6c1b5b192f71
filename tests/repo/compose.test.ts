import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * docker-compose.yml as an IT office runs it (`docker compose up -d` with a
 * .env beside it), the reverse proxy's configuration it mounts, and
 * .env.example. This machine has no Docker engine: the files are checked by
 * reading them (README "Operating Manabiya" says what was run where).
 */
const composeText = readFileSync("docker-compose.yml", "utf8");
const example = readFileSync(".env.example", "utf8");

interface Service {
  image?: string;
  build?: unknown;
  ports?: unknown[];
  expose?: unknown[];
  environment?: Record<string, string>;
  env_file?: string | (string | { path: string })[];
  volumes?: string[];
  healthcheck?: { test?: unknown };
  depends_on?: Record<string, { condition?: string }>;
  stop_grace_period?: string;
  container_name?: string;
  init?: boolean;
  profiles?: string[];
  restart?: string;
}
const compose = parse(composeText) as {
  version?: unknown;
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const services = compose.services;
const app = services.app!;
const proxyName = Object.keys(services).find((name) => /^(caddy|nginx)(:|$)/.test(services[name]!.image ?? ""));
const proxy = proxyName ? services[proxyName]! : undefined;

/** The optional PgBouncer service (profile `pooler`), by its image. */
const poolerName = Object.keys(services).find((name) => /pgbouncer/.test(services[name]!.image ?? ""));
const pooler = poolerName ? services[poolerName]! : undefined;

/**
 * A value as compose interpolates it from .env (`vars`): `${NAME}`, `${NAME:-default}`, `${NAME:+value when set}`,
 * `${NAME:?error}` (an unset required one stays as written).
 */
function interpolate(value: string | undefined, vars: Record<string, string>): string | undefined {
  return value?.replace(/\$\{(\w+)(?::([-+?])([^}]*))?\}/g, (whole, name: string, op?: string, arg = "") => {
    const set = Boolean(vars[name]);
    if (op === "-") return set ? vars[name]! : arg;
    if (op === "+") return set ? arg : "";
    if (op === "?" && !set) return whole;
    return vars[name] ?? "";
  });
}
/** The app's database settings with these variables in .env. */
const appDatabase = (vars: Record<string, string>) => ({
  DATABASE_URL: interpolate(app.environment?.DATABASE_URL, vars),
  DATABASE_DIRECT_URL: interpolate(app.environment?.DATABASE_DIRECT_URL, vars) ?? "",
});
const DIRECT = "postgresql://manabiya@db:5432/manabiya";

/** The host file a service mounts at `target` (relative to the compose file). */
const mounted = (service: Service | undefined, target: string) =>
  service?.volumes?.map((v) => v.split(":")).find((parts) => parts[1] === target)?.[0];
const caddyfilePath = mounted(proxy, "/etc/caddy/Caddyfile");
const caddyfile = caddyfilePath && existsSync(caddyfilePath) ? readFileSync(caddyfilePath, "utf8") : "";

/** Go-style durations as compose writes them ("15s", "1m30s") in seconds. */
function seconds(duration = "0s") {
  let total = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g))
    total += Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit as "ms" | "s" | "m" | "h"];
  return total;
}

/** Every file of the app and its scripts, to look up where a variable is read. */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) out.push(readFileSync(full, "utf8"));
  }
  return out;
}

describe("docker-compose.yml", () => {
  it("is Compose v2 (no `version:` key) with PostgreSQL 18, the app and a reverse proxy", () => {
    expect(compose.version).toBeUndefined();
    expect(services.db?.image).toMatch(/^postgres:18(\.|-|$)/);
    expect(app.build).toBeDefined();
    expect(proxy, "a caddy or nginx service").toBeDefined();
  });

  it("keeps the database in a named volume and starts the app only once PostgreSQL answers", () => {
    const db = services.db!;
    const volume = mounted(db, "/var/lib/postgresql");
    expect(volume && Object.keys(compose.volumes ?? {})).toContain(volume);
    expect(JSON.stringify(db.healthcheck?.test)).toMatch(/pg_isready/);
    expect(app.depends_on?.db?.condition).toBe("service_healthy");
  });

  it("calls the database healthy only once it answers over TCP, as the app connects (not the first start's socket-only server)", () => {
    // the image's first start runs initdb under a temporary server that listens on its Unix socket only
    expect(JSON.stringify(services.db!.healthcheck?.test)).toMatch(/pg_isready -h (127\.0\.0\.1|localhost) /);
  });

  it("passes the database password beside the URL (PGPASSWORD), so a password with @ # : / works unencoded", () => {
    expect(appDatabase({}).DATABASE_URL).toBe(DIRECT);
    expect(app.environment?.PGPASSWORD).toBe("${POSTGRES_PASSWORD}");
  });

  it("publishes only the proxy: the app is reachable through it alone and can be scaled (no fixed name or host port)", () => {
    expect(app.ports).toBeUndefined();
    expect(app.container_name).toBeUndefined();
    expect(proxy?.ports?.map(String)).toEqual(expect.arrayContaining(["80:80", "443:443"]));
  });

  it("trusts exactly the one proxy in front of the app for the client's address", () => {
    // fixed, not from .env: the .env.example value (0) is right for `npm start` without a proxy
    expect(app.environment?.TRUSTED_PROXY_HOPS).toBe("1");
    // Caddy sets X-Forwarded-For to the address it saw (it ignores a client's own header): one hop
    expect(caddyfile).not.toMatch(/trusted_proxies|header_up\s+[+-]?X-Forwarded-For/i);
  });

  it("hands the app every setting of .env it reads (LOG_LEVEL, limits, timeouts), the values compose fixes winning", () => {
    const files = [app.env_file ?? []].flat().map((f) => (typeof f === "string" ? f : f.path));
    const notTheApps = new Set([
      "POSTGRES_PASSWORD",
      "CADDY_TLS",
      "MANABIYA_PG_DIR",
      "EMBEDDED_PG_PORT",
      "MANABIYA_DB_NAME",
    ]);
    const names = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)]
      .map((m) => m[1]!)
      .filter((n) => !notTheApps.has(n));
    expect(names).toEqual(
      expect.arrayContaining(["LOG_LEVEL", "HTTP_MAX_CONNECTIONS", "LIVE_STREAMS_MAX", "DB_STATEMENT_TIMEOUT_MS"]),
    );
    for (const name of names)
      expect(files.includes(".env") || app.environment?.[name] !== undefined, `${name} reaches the app`).toBe(true);
    // .env.example's values for `npm start` on the host (localhost database, no proxy, any port) never reach the container
    expect(appDatabase({ DATABASE_URL: "postgresql://x@localhost/y", DATABASE_DIRECT_URL: "postgresql://z" })).toEqual({
      DATABASE_URL: DIRECT,
      DATABASE_DIRECT_URL: "",
    });
    expect(app.environment).toMatchObject({
      TRUSTED_PROXY_HOPS: "1",
      PORT: "3000",
      NODE_ENV: "production",
    });
  });

  it("gives the app time for its graceful shutdown (10 s) before it is killed", () => {
    expect(seconds(app.stop_grace_period)).toBeGreaterThanOrEqual(15);
    expect(app.init).toBe(true);
  });

  it("requires every secret it interpolates from .env, and each is described in .env.example", () => {
    const required = [...composeText.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!);
    expect(required).toEqual(
      expect.arrayContaining(["POSTGRES_PASSWORD", "AUTH_SECRET", "AUTH_URL", "SIGNIN_CODE_KEY"]),
    );
    for (const name of new Set([...composeText.matchAll(/\$\{(\w+)/g)].map((m) => m[1]!)))
      expect(example, name).toMatch(new RegExp(`^#?\\s*${name}=`, "m"));
  });
});

describe("the optional pooler (docker compose --profile pooler)", () => {
  it("is PgBouncer, its image pinned to a version, in transaction mode, started only with the profile `pooler`", () => {
    expect(pooler, "a pgbouncer service").toBeDefined();
    expect(pooler!.image).toMatch(/^edoburu\/pgbouncer:v?\d+\.\d+\.\d+/);
    expect(pooler!.profiles).toEqual(["pooler"]);
    expect(pooler!.environment?.POOL_MODE).toBe("transaction");
    // the database, the app and the proxy start without it, as before
    for (const [name, service] of Object.entries(services))
      if (name !== poolerName) expect(service.profiles, name).toBeUndefined();
  });

  it("sits in front of the database the app uses, once it answers, with the same user, password and database", () => {
    const env = pooler!.environment ?? {};
    expect(env).toMatchObject({
      DB_HOST: "db",
      DB_NAME: "manabiya",
      DB_USER: "manabiya",
      DB_PASSWORD: "${POSTGRES_PASSWORD}",
      AUTH_TYPE: "scram-sha-256",
    });
    expect(pooler!.depends_on?.db?.condition).toBe("service_healthy");
    expect(JSON.stringify(pooler!.healthcheck?.test)).toMatch(/pg_isready -h 127\.0\.0\.1 /);
    expect(pooler!.restart).toBe("unless-stopped");
  });

  it("holds the timeouts the app cannot send through it (statement_timeout, idle_in_transaction_session_timeout)", () => {
    const statementMs = Number(/^#?\s*DB_STATEMENT_TIMEOUT_MS=(\d+)/m.exec(example)?.[1]);
    expect(Number(pooler!.environment?.QUERY_TIMEOUT) * 1000).toBe(statementMs);
    expect(pooler!.environment?.IDLE_TRANSACTION_TIMEOUT).toBe("30");
  });

  it("without it the app connects straight to the database, as a single server does (no DATABASE_DIRECT_URL)", () => {
    expect(appDatabase({})).toEqual({ DATABASE_URL: DIRECT, DATABASE_DIRECT_URL: "" });
  });

  it("with DATABASE_POOLER=pgbouncer in .env the app's queries go through it, LISTEN, migrations, backup and restore straight to the database", () => {
    const { DATABASE_URL, DATABASE_DIRECT_URL } = appDatabase({ DATABASE_POOLER: poolerName! });
    const url = new URL(DATABASE_URL!);
    expect(url.hostname).toBe(poolerName);
    expect(url.port).toBe(pooler!.environment?.LISTEN_PORT ?? "5432");
    expect([decodeURIComponent(url.username), url.pathname]).toEqual(["manabiya", "/manabiya"]);
    expect(url.password).toBe("");
    expect(DATABASE_DIRECT_URL).toBe(DIRECT);
    expect(example).toMatch(/^#\s*DATABASE_POOLER=pgbouncer$/m);
  });

  it("keeps `--scale app=N` working: neither the app nor the pooler has a fixed name or a host port", () => {
    for (const service of [app, pooler!]) {
      expect(service.container_name).toBeUndefined();
      expect(service.ports).toBeUndefined();
    }
    for (const doc of ["README.md", "docs/scaling.md"])
      expect(readFileSync(doc, "utf8"), doc).toMatch(/docker compose --profile pooler up -d --scale app=\d/);
  });
});

describe("the reverse proxy (deploy/Caddyfile)", () => {
  it("is the Caddyfile in the repository, for the public address in AUTH_URL", () => {
    expect(caddyfilePath).toBe("./deploy/Caddyfile");
    expect(caddyfile).toMatch(/^\{\$SITE_ADDRESS\}\s*\{/m);
    expect(proxy?.environment?.SITE_ADDRESS).toBe("${AUTH_URL:?set AUTH_URL in .env}");
  });

  it("sends requests to the app service on the port its image exposes, to every scaled instance", () => {
    const exposed = /^EXPOSE\s+(\d+)/m.exec(readFileSync("Dockerfile", "utf8"))?.[1];
    expect(caddyfile).toMatch(new RegExp(`dynamic a app ${exposed}\\b`));
  });

  it("without Docker, sends requests to the instances MANABIYA_UPSTREAMS lists instead (tests/e2e/proxy.spec.ts runs it so)", () => {
    expect(caddyfile).toMatch(/^\s*\{\$MANABIYA_UPSTREAMS:dynamic a app \d+\}$/m);
    expect(proxy?.environment?.MANABIYA_UPSTREAMS).toBeUndefined();
    expect(readFileSync("tests/support/caddy.ts", "utf8")).toMatch(/"deploy\/Caddyfile"/);
  });

  it("reaches the app instances only, never the database or its pooler", () => {
    // a directive at the start of a line, or as the default of an environment placeholder ({$NAME:default})
    const upstreams = [...caddyfile.matchAll(/^\s*(?:\{\$\w+:)?(?:dynamic a|reverse_proxy)\s+([^\s{}]+)/gm)].map(
      (m) => m[1],
    );
    expect(upstreams).toEqual(["app"]);
    expect(caddyfile).not.toMatch(new RegExp(`\\b(db|${poolerName ?? "pgbouncer"})[:\\s]`));
  });

  it("streams the live lesson (/api/v1/live/…) without buffering", () => {
    const live = /handle \/api\/v1\/live\/\*\s*\{([\s\S]*?)\n\t\}/.exec(caddyfile)?.[1] ?? "";
    expect(live).toMatch(/flush_interval -1/);
    // a stream lasts the whole lesson: no server timeout may end it
    expect(caddyfile).not.toMatch(/^\s*(read_body|write)\s/m);
    expect(readFileSync("features/play/server/routes.ts", "utf8")).toMatch(/GET \/api\/v1\/live\//);
  });

  it("takes its TLS mode from .env (Caddy's own CA on a school LAN, ACME with a public name, or the school's certificate)", () => {
    expect(caddyfile).toMatch(/tls \{\$CADDY_TLS:internal\}/);
    expect(proxy?.environment?.CADDY_TLS).toBe("${CADDY_TLS:-internal}");
  });
});

describe(".env.example", () => {
  it("lists only variables that the app, its scripts or the compose file read", () => {
    const code = [
      ...["features", "platform", "screens", "server", "tools"].flatMap((d) => sources(d)),
      ...sources("app"),
      ...sources("scripts"),
      ...sources("prisma"),
      readFileSync("next.config.ts", "utf8"),
      readFileSync("proxy.ts", "utf8"),
    ].join("\n");
    const names = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(code.includes(name) || composeText.includes(`\${${name}`), name).toBe(true);
  });
});
