/**
 * Lighthouse (the version in devDependencies, its default config: mobile, simulated
 * throttling) in Debian's Chromium, signed in as the demo student by the real sign-in form.
 * Playwright launches the browser with a DevTools port; Lighthouse opens its own tab in the
 * same (persistent) browser context, so the session cookie is the one the form set.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "@playwright/test";
import lighthouse from "lighthouse";
import { BASE_URL, STUDENT } from "./app";
import { ROOT } from "../../scripts/lib/prepare-db";

/** Each run's full report (JSON, for Lighthouse's viewer) lands here. */
export const REPORT_DIR = path.join(ROOT, ".data/lighthouse");
import { DEMO_PASSWORD } from "../../prisma/seed/demo";
import { FULL_CHROMIUM } from "../../scripts/lib/chromium";

export const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface PageRun {
  scores: Record<Category, number>;
  /** Messages of the `errors-in-console` audit. */
  consoleErrors: string[];
  /** Audits below a full score in accessibility and best practices (id: title). */
  misses: string[];
  lighthouseVersion: string;
  /** Lighthouse's measure of this machine's speed at the time (a quiet desktop: about 1,500–2,500). */
  benchmarkIndex: number;
}

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  version: string;
  run: (url: string, name: string) => Promise<PageRun>;
  signIn: () => Promise<void>;
  close: () => Promise<void>;
}

async function devtoolsPort(dir: string): Promise<number> {
  // Chromium writes the port it took for --remote-debugging-port=0 into this file
  for (let i = 0; i < 100; i++) {
    const port = Number(readFileSync(path.join(dir, "DevToolsActivePort"), "utf8").split("\n")[0]);
    if (port > 0) return port;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("Chromium did not say its DevTools port");
}

async function signIn(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${BASE_URL}/signin`);
  await page.getByLabel("メールアドレス").fill(STUDENT.email);
  await page.getByLabel("パスワード").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "サインイン", exact: true }).click();
  await page.waitForURL(`${BASE_URL}/dashboard/student/home`, { timeout: 120_000 });
  await page.close();
}

export async function openBrowser(): Promise<Browser> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "manabiya-lighthouse-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: FULL_CHROMIUM,
    headless: true,
    // no Playwright emulation on the tabs: Lighthouse sets the mobile screen itself
    viewport: null,
    args: [...ARGS, "--remote-debugging-port=0"],
  });
  const port = await devtoolsPort(dir);
  return {
    version: execFileSync(FULL_CHROMIUM, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim(),
    signIn: () => signIn(context),
    run: async (url, name) => {
      // a run Lighthouse itself calls broken (e.g. NO_NAVSTART: "please run Lighthouse again") is run again, twice at most
      let result: Awaited<ReturnType<typeof lighthouse>>;
      for (let attempt = 1; ; attempt++) {
        result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
        if (!result?.lhr.runtimeError || attempt === 3) break;
        console.log(`  (Lighthouse: ${result.lhr.runtimeError.code}; running again)`);
      }
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      const { lhr } = result;
      mkdirSync(REPORT_DIR, { recursive: true });
      writeFileSync(
        path.join(REPORT_DIR, `${name}.json`),
        typeof result.report === "string" ? result.report : JSON.stringify(lhr),
      );
      if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      if (lhr.finalDisplayedUrl !== url) throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not ${url}`);
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const items =
        (
          lhr.audits["errors-in-console"]?.details as
            { items?: { description?: string; source?: string }[] } | undefined
        )?.items ?? [];
      const misses = (["accessibility", "best-practices"] as const).flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${ref.id}: ${lhr.audits[ref.id]?.title ?? ""}`),
      );
      return {
        scores,
        consoleErrors: items.map((i) => `${i.source ?? ""} ${i.description ?? ""}`.trim()),
        misses,
        lighthouseVersion: lhr.lighthouseVersion,
        benchmarkIndex: lhr.environment.benchmarkIndex,
      };
    },
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
