import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { type Browser, expect, type Page } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { E2E_DATABASE_URL } from "./config";
import { e2eDb, e2eSecrets, makeSchool, scenesOf, TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/**
 * Another production server (server/main.ts) of the e2e build on its own port and the same
 * database (as a second instance behind a load balancer). Used by the
 * multi-instance and fault tests.
 */
export class AppInstance {
  private child: ChildProcess | undefined;
  /** Every line the server wrote to stdout (its JSON log, platform/ops/log.ts), in order. */
  readonly output: string[] = [];
  constructor(
    readonly port: number,
    private readonly databaseUrl = E2E_DATABASE_URL,
    /** more environment for this instance (e.g. small resource limits) */
    private readonly extraEnv: Record<string, string> = {},
  ) {}

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    const secrets = e2eSecrets();
    this.child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(this.port),
        DATABASE_URL: this.databaseUrl,
        ...secrets,
        NEXT_TELEMETRY_DISABLED: "1",
        AUTH_URL: this.url,
        ...this.extraEnv,
      },
      stdio: ["ignore", "pipe", "ignore"],
    });
    const child = this.child;
    createInterface({ input: child.stdout! }).on("line", (line) => this.output.push(line));
    // a server that cannot take its port (another one is on it) exits: fail here rather than test that other server
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code, signal) =>
        reject(
          new Error(
            `the app instance on port ${this.port} exited (${code ?? signal}) before it was ready: is the port taken?`,
          ),
        ),
      ),
    );
    await Promise.race([
      expect
        .poll(
          async () =>
            fetch(`${this.url}/signin`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 90_000, intervals: [300] },
        )
        .toBe(200),
      exited,
    ]);
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the app instance on port ${this.port} is not running`);
  }

  /** kill -9: no shutdown, open streams and requests just break. */
  async crash(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /** SIGTERM, and waits until the port is free (a hook run again in the same worker starts it anew). */
  async stop(): Promise<{ code: number | null; signal: string | null; ms: number } | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return null;
    const started = Date.now();
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    child.kill("SIGTERM");
    // its own shutdown ends within 10 s; a server still there after 15 s is killed (and the caller sees SIGKILL)
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const result = await exited;
    clearTimeout(timer);
    return { ...result, ms: Date.now() - started };
  }
}

/**
 * A guide-mode copy of the science template in a fresh school, its teacher
 * on the guide screen (on the main instance) and its students (one unless
 * `studentCount` says more) each signed in on `studentBaseUrl` (another
 * instance, or a proxy in front of others) in a context of their own.
 */
export async function guideAcrossInstances(browser: Browser, studentBaseUrl: string, studentCount = 1) {
  const { teacher, school, students } = await makeSchool(studentCount);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const scenes = await scenesOf(activity.id);
  const teacherContext = await browser.newContext();
  const teacherPage = await teacherContext.newPage();
  await signInAs(teacherPage, teacher.email!, TEST_PASSWORD);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  const kidContexts = await Promise.all(students.map(() => browser.newContext({ baseURL: studentBaseUrl })));
  const kids = await Promise.all(kidContexts.map((context) => context.newPage()));
  for (const [i, page] of kids.entries()) await signInAs(page, students[i]!.email!, TEST_PASSWORD);
  const close = async () => {
    for (const context of kidContexts) await context.close();
    await teacherContext.close();
  };
  return { activity, scenes, students, teacherPage, kid: kids[0]!, kids, close };
}

/** From now on, records every scene the student's live screen shows, in order (read with `scenesSeen`). */
export async function watchScenes(kid: Page): Promise<void> {
  await kid.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const el = document.querySelector('[data-testid="live-session"]')!;
    new MutationObserver(() => {
      const id = el.getAttribute("data-scene-id") ?? "";
      if (id && seen.at(-1) !== id) seen.push(id);
    }).observe(el, { attributes: true, attributeFilter: ["data-scene-id"] });
  });
}

/** The positions (in `scenes`) of the scenes `watchScenes` saw on the student's screen, in the order shown. */
export async function scenesSeen(kid: Page, scenes: { id: string }[]): Promise<number[]> {
  const seen = await kid.evaluate(() => (window as unknown as { seen: string[] }).seen);
  return seen.map((id) => scenes.findIndex((s) => s.id === id));
}
