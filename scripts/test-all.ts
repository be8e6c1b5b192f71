/**
 * `npm test`: every check, in order, stopping at the first failure: format (Prettier), lint,
 * import boundaries (dependency-cruiser, .dependency-cruiser.cjs), types, catalogues, Vitest (unit + integration on the embedded PostgreSQL),
 * Playwright (Chromium against a production build), Lighthouse's deterministic checks.
 */
import { spawnSync } from "node:child_process";

const steps: [string, string[]][] = [
  ["format", ["npx", "prettier", "--check", "."]],
  ["lint", ["npx", "eslint", "."]],
  ["boundaries", ["npm", "run", "--silent", "boundaries"]],
  ["typecheck", ["npx", "tsc", "--noEmit"]],
  ["i18n", ["npx", "tsx", "scripts/i18n-check.ts"]],
  ["vitest", ["npx", "vitest", "run"]],
  ["e2e", ["npx", "playwright", "test"]],
  // Lighthouse on the sign-in page, the student home and a math scene: accessibility 100, best
  // practices 100, no console error (performance is judged by `npm run lighthouse`: docs/benchmarks.md)
  ["lighthouse", ["npx", "tsx", "tools/lighthouse/main.ts", "--runs=1", "--no-performance"]],
];

const only = process.argv.slice(2);
const started = Date.now();
for (const [name, [cmd, ...args]] of steps) {
  if (only.length > 0 && !only.includes(name)) continue;
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${[cmd, ...args].join(" ")}`);
  const result = spawnSync(cmd!, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(0);
  if (result.status !== 0) {
    console.error(`\n=== ${name} FAILED after ${seconds}s (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name} passed in ${seconds}s`);
}
console.log(`\nall checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
