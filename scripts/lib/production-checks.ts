import { verifyPassword } from "@/platform/auth/password";
import { AUTH_URL_REQUIRED, EnvError, parseEnv } from "@/platform/env";
import { DEMO_PASSWORD, demoEmails } from "../../prisma/seed/demo";
import { openClient } from "@/platform/db/connect";

/**
 * What a production start (NODE_ENV=production) refuses before it touches any
 * database (docs/architecture.md "Start-up"): no
 * embedded PostgreSQL, no demo accounts, every required setting present. All
 * problems are listed at once so an operator fixes them in one go.
 */
export function productionConfigProblems(source: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (!source.DATABASE_URL) {
    problems.push("DATABASE_URL: required in production (NODE_ENV=production never starts the embedded database)");
  }
  if (!source.AUTH_URL) {
    problems.push(`AUTH_URL: ${AUTH_URL_REQUIRED}`);
  }
  // the origin alone: compose's Caddy takes AUTH_URL as its site address, and a path there
  // (even a trailing "/") limits the site to that path (README "Settings and secrets")
  if (source.AUTH_URL && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+[/?#]/i.test(source.AUTH_URL)) {
    problems.push(
      `AUTH_URL: the public origin only, without a path, query or trailing slash (e.g. https://manabiya.school.example.jp), not ${JSON.stringify(source.AUTH_URL)}`,
    );
  }
  if (source.SEED_DEMO === "1" || source.SEED_DEMO === "true") {
    problems.push("SEED_DEMO: must be 0 in production (the demo accounts' password is published in the README)");
  }
  try {
    parseEnv({ ...source, NODE_ENV: "production" });
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // the two above are already named (zod skips the AUTH_URL rule while another field is wrong)
    problems.push(
      ...error.problems.filter(
        (p) =>
          !(!source.DATABASE_URL && p.startsWith("DATABASE_URL")) && !(!source.AUTH_URL && p.startsWith("AUTH_URL")),
      ),
    );
  }
  return problems;
}

/** E-mail addresses of the demo school's accounts that still sign in with the published demo password. */
export async function demoPasswordAccounts(databaseUrl: string): Promise<string[]> {
  const emails = demoEmails();
  const client = await openClient(databaseUrl);
  try {
    const rows = await client.query<{ email: string; password_hash: string }>(
      `select email, password_hash from users where email = any($1::text[]) and password_hash is not null order by email`,
      [emails],
    );
    // the seed hashes the demo password once, so most rows share a hash: verify each distinct one once
    const verdicts = new Map<string, Promise<boolean>>();
    const checks = rows.rows.map(async (r) => {
      if (!verdicts.has(r.password_hash)) verdicts.set(r.password_hash, verifyPassword(r.password_hash, DEMO_PASSWORD));
      return (await verdicts.get(r.password_hash)) ? r.email : null;
    });
    return (await Promise.all(checks)).filter((e): e is string => e !== null);
  } finally {
    await client.end();
  }
}
