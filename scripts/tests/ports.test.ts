import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PG_PORTS } from "../lib/ports";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Linux's default ip_local_port_range: the ports outgoing connections are given. */
const EPHEMERAL = { from: 32768, to: 60999 };

describe("default ports", () => {
  it("the embedded clusters' defaults, and the ports derived from them, are distinct and below Linux's ephemeral range", () => {
    const all = [
      PG_PORTS.dev,
      PG_PORTS.integration,
      PG_PORTS.integration + 7,
      PG_PORTS.integration + 9,
      PG_PORTS.integration + 50,
      PG_PORTS.e2e,
      PG_PORTS.e2e + 3,
      PG_PORTS.e2e + 5,
      PG_PORTS.e2e + 7,
      PG_PORTS.bench,
    ];
    expect(new Set(all).size).toBe(all.length);
    for (const port of all) expect(port).toBeLessThan(EPHEMERAL.from);
  });

  it("no script, test or setting defaults a port inside Linux's ephemeral range", () => {
    const files = execFileSync(
      "git",
      [
        "ls-files",
        "scripts",
        "tests",
        "features",
        "platform",
        "server",
        "tools",
        "playwright.config.ts",
        "vitest.config.ts",
        ".env.example",
        "docker-compose.yml",
      ],
      { cwd: ROOT, encoding: "utf8" },
    )
      .split("\n")
      .filter((f) => /\.(ts|tsx|mjs|js|yml)$|\.env\.example$/.test(f));
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      // `X_PORT ?? <five digits>`, `X_PORT: "<five digits>"`, `# X_PORT=<five digits>` (no digits here: this file is scanned too)
      for (const m of text.matchAll(/PORT\w*\)?\s*(?:\?\?|=|:)\s*["']?(\d{5})\b/gi)) {
        const port = Number(m[1]);
        if (port >= EPHEMERAL.from && port <= EPHEMERAL.to) found.push(`${file}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("each port derived from E2E_PORT (the e2e run's extra servers, Lighthouse's app) is taken by one file only", () => {
    const files = execFileSync("git", ["ls-files", "scripts", "tests", "playwright.config.ts"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter((f) => /\.(ts|mjs|js)$/.test(f));
    const users = new Map<number, Set<string>>();
    for (const file of files) {
      // `E2E_PORT + <n>`, `Number(process.env.E2E_PORT ?? <default>) + <n>`
      for (const m of readFileSync(path.join(ROOT, file), "utf8").matchAll(
        /E2E_PORT\b(?:\s*\?\?\s*\d+\))?\s*\+\s*(\d+)/g,
      )) {
        const offset = Number(m[1]);
        users.set(offset, (users.get(offset) ?? new Set()).add(file));
      }
    }
    expect(users.size).toBeGreaterThan(5);
    const shared = [...users]
      .filter(([, by]) => by.size > 1)
      .map(([offset, by]) => `E2E_PORT + ${offset}: ${[...by].join(", ")}`);
    expect(shared).toEqual([]);
  });
});
