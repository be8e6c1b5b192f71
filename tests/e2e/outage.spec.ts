import net from "node:net";
import { expect, test } from "@playwright/test";
import { createPrismaClient } from "@/platform/db/client";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { ensureEmbeddedPostgres, recreateDatabase } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";
import { E2E_PG_PORT, E2E_PORT } from "./config";
import { AppInstance } from "./instance";
import { makeSchool, TEST_PASSWORD } from "./db";
import { signIn } from "./helpers";

/**
 * A TCP relay between the app and PostgreSQL that can stop passing bytes, both on the
 * connections it holds and on new ones, as a network partition or a frozen database
 * does (nothing refused, nothing answered), and pass them again later.
 */
class Relay {
  private server: net.Server | undefined;
  private held = new Set<net.Socket>();
  private frozen = false;
  constructor(private readonly target: number) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, "127.0.0.1");
      // pipe first: pipe() resumes a paused source
      client.pipe(upstream).on("error", () => undefined);
      upstream.pipe(client).on("error", () => undefined);
      for (const s of [client, upstream]) {
        this.held.add(s);
        s.on("error", () => undefined);
        s.once("close", () => this.held.delete(s));
        if (this.frozen) s.pause();
      }
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return (this.server!.address() as net.AddressInfo).port;
  }

  freeze(): void {
    this.frozen = true;
    for (const s of this.held) s.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const s of this.held) s.resume();
  }

  async stop(): Promise<void> {
    for (const s of this.held) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

test.describe("the database stops answering", () => {
  const dir = ".data/pg-outage";
  const port = E2E_PG_PORT + 7;
  let pgCluster: Awaited<ReturnType<typeof ensureEmbeddedPostgres>>;
  let relay: Relay;
  let app: AppInstance;
  let db: ReturnType<typeof createPrismaClient>;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    pgCluster = await ensureEmbeddedPostgres({ dir, port, portEnv: "E2E_PG_PORT" });
    await recreateDatabase(pgCluster.adminUrl, "manabiya_outage");
    const url = pgCluster.urlFor("manabiya_outage");
    await migrate(url);
    db = createPrismaClient(url, 2);
    await syncTemplates(db, await readTemplateFiles());
    relay = new Relay(port);
    const relayed = new URL(url);
    relayed.port = String(await relay.start());
    app = new AppInstance(E2E_PORT + 75, relayed.toString(), {
      DB_CONNECT_TIMEOUT_MS: "2000",
      DB_STATEMENT_TIMEOUT_MS: "3000",
    });
    await app.start();
  });
  test.afterAll(async () => {
    await app?.stop();
    await relay?.stop();
    await db?.$disconnect();
    await pgCluster?.stop();
  });

  test("outage: pages fail within seconds with a translated try-again page, and work again once the database is back", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { students } = await makeSchool(1, db);
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await signIn(page, students[0]!.email!, TEST_PASSWORD);
    await expect(page.getByTestId("my-activities")).toBeVisible({ timeout: 30_000 });

    // the same page while the database answers: what this machine takes now to render it, beside the wait
    let started = Date.now();
    await page.goto("/dashboard/student/home");
    await expect(page.getByTestId("my-activities")).toBeVisible({ timeout: 30_000 });
    const quiet = Date.now() - started;

    relay.freeze();
    started = Date.now();
    await page.goto("/dashboard/student/home", { timeout: 30_000 });
    const tryAgain = page.getByTestId("try-again");
    await expect(tryAgain).toBeVisible({ timeout: 30_000 });
    // a held connection's query ends after the statement timeout and 5 s more (8 s here), then the page renders;
    // without those timeouts it would wait 20 s or more
    expect(Date.now() - started).toBeLessThan(8_000 + Math.min(8_000, Math.max(4_000, 4 * quiet)));
    // the default language (with readings): the retry button says so
    await expect(page.getByTestId("try-again-button")).toContainText("ためす");

    relay.thaw();
    await page.getByTestId("try-again-button").click();
    await expect(page.getByTestId("my-activities")).toBeVisible({ timeout: 30_000 });
    await expect(tryAgain).toHaveCount(0);
    await context.close();
  });
});
