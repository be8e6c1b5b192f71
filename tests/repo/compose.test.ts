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
    expect(app.environment?.DATABASE_URL).toBe("postgresql://manabiya@db:5432/manabiya");
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
    expect(app.environment).toMatchObject({
      DATABASE_URL: "postgresql://manabiya@db:5432/manabiya",
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
