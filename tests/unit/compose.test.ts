import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** docker-compose.yml as an IT office runs it (`docker compose up` with a .env beside it). */
const compose = readFileSync("docker-compose.yml", "utf8");
const example = readFileSync(".env.example", "utf8");

describe("docker-compose.yml", () => {
  it("passes the database password beside the URL (PGPASSWORD), so a password with @ # : / works unencoded", () => {
    const url = /DATABASE_URL:\s*(\S+)/.exec(compose)?.[1] ?? "";
    expect(url).toMatch(/^postgresql:\/\/manabiya@db:5432\/manabiya$/);
    expect(compose).toMatch(/PGPASSWORD:\s*\$\{POSTGRES_PASSWORD\}/);
  });

  it("requires every secret it interpolates from .env, and each is described in .env.example", () => {
    const required = [...compose.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!);
    expect(required).toEqual(expect.arrayContaining(["POSTGRES_PASSWORD", "AUTH_SECRET", "AUTH_URL", "SIGNIN_CODE_KEY"]));
    for (const name of new Set([...compose.matchAll(/\$\{(\w+)/g)].map((m) => m[1]!))) expect(example, name).toMatch(new RegExp(`^#?\\s*${name}=`, "m"));
  });
});
