import net from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { E2E_PORT } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { signIn } from "./helpers";
import { AppInstance } from "./instance";

/**
 * The server log (docs/architecture.md "Operations"): a production server's
 * real stdout, read line by line. Its mail server hangs up at once, so every
 * mail fails there.
 */
type Line = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const linesOf = (app: AppInstance): Line[] => app.output.map((l) => JSON.parse(l) as Line);
const find = (app: AppInstance, match: (l: Line) => boolean) => linesOf(app).filter(match);

test.describe("the production server's log (LOG_LEVEL=debug)", () => {
  // one worker for the whole block: parallel workers would each start a server on the same port
  test.describe.configure({ mode: "default" });
  const smtpPort = E2E_PORT + 76;
  const app = new AppInstance(E2E_PORT + 72, undefined, {
    LOG_LEVEL: "debug",
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
  // a mail server that hangs up on every connection: each send fails at once (a port nobody holds could be taken meanwhile)
  const refuser = net.createServer((socket) => socket.destroy());
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await new Promise<void>((resolve, reject) => refuser.once("error", reject).listen(smtpPort, "127.0.0.1", resolve));
    await app.start();
  });
  test.afterAll(async () => {
    await app.stop();
    refuser.close();
  });

  test("every line is JSON; a request keeps a safe X-Request-Id, gets a new one for a forged one, and has one access line without its query", async () => {
    const own = await fetch(`${app.url}/healthz?token=SECRET-IN-QUERY`, { headers: { "X-Request-Id": "lb-4f2a.9_X" } });
    expect(own.headers.get("x-request-id")).toBe("lb-4f2a.9_X");
    const forged = ['x","level":"error","userId":"forged', "a".repeat(65), "a b", "../etc"];
    const given: string[] = [];
    for (const id of forged) {
      const res = await fetch(`${app.url}/healthz`, { headers: { "X-Request-Id": id } });
      const answered = res.headers.get("x-request-id")!;
      expect(answered).toMatch(UUID);
      given.push(answered);
    }
    const page = (await fetch(`${app.url}/signin`)).headers.get("x-request-id")!;
    expect(page).toMatch(UUID);

    await expect
      .poll(() => find(app, (l) => l.event === "http" && l.reqId === page))
      .toEqual([
        expect.objectContaining({ level: "info", method: "GET", path: "/signin", status: 200, ms: expect.any(Number) }),
      ]);
    // the load balancer's probes are busy traffic: debug
    expect(find(app, (l) => l.event === "http" && l.reqId === "lb-4f2a.9_X")).toEqual([
      expect.objectContaining({ level: "debug", method: "GET", path: "/healthz", status: 200 }),
    ]);
    for (const id of given) expect(find(app, (l) => l.reqId === id)).toHaveLength(1);
    const text = app.output.join("\n");
    expect(text).not.toContain("SECRET-IN-QUERY");
    expect(text).not.toContain("forged");
    expect(find(app, (l) => l.event === "ready")).toHaveLength(1);
  });

  test("a sign-in failure (in a server action) carries the request's id and the user id, never the e-mail", async ({
    browser,
  }) => {
    const { teacher } = await makeSchool(0);
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await signIn(page, teacher.email!, "typed-Wr0ng-pass");
    await expect(page.getByTestId("signin-error")).toBeVisible();
    await context.close();
    await expect
      .poll(() => find(app, (l) => l.event === "signin.password.failure" && l.userId === teacher.id))
      .toHaveLength(1);
    const [failure] = find(app, (l) => l.event === "signin.password.failure" && l.userId === teacher.id);
    expect(failure).toMatchObject({
      level: "info",
      method: "password",
      reason: "wrongPassword",
      reqId: expect.any(String),
    });
    await expect
      .poll(() => find(app, (l) => l.event === "http" && l.reqId === failure!.reqId))
      .toEqual([expect.objectContaining({ method: "POST" })]);
    const text = app.output.join("\n");
    expect(text).not.toContain(teacher.email!);
    expect(text).not.toContain("typed-Wr0ng-pass");
  });

  test("an export: which, the activity, the user and the rows, under the export request's id", async ({ browser }) => {
    const { teacher, school, students } = await makeSchool(2);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const scene = await e2eDb().activityScene.findFirstOrThrow({
      where: { activityId: activity.id, type: "free_text" },
      select: { id: true, position: true },
    });
    for (const s of students)
      await createResponse(e2eDb(), {
        activityId: activity.id,
        sceneId: scene.id,
        userId: s.id,
        scenePosition: scene.position,
        answer: { text: "とける" },
      });
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await signIn(page, teacher.email!, TEST_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 60_000 });
    const res = await page.request.get(`/api/v1/exports/${activity.id}/responses`);
    expect(res.status()).toBe(200);
    await res.body();
    const reqId = res.headers()["x-request-id"];
    await context.close();
    await expect
      .poll(() => find(app, (l) => l.event === "export.done" && l.reqId === reqId))
      .toEqual([
        expect.objectContaining({
          level: "info",
          export: "responses",
          activityId: activity.id,
          userId: teacher.id,
          rows: 2,
        }),
      ]);
    expect(find(app, (l) => l.event === "export.responses" && l.reqId === reqId)).toEqual([
      expect.objectContaining({ userId: teacher.id, targetId: activity.id }),
    ]);
  });

  test("a reset mail that fails: an error line with the user id under the server action's request id; the page answers as for an unknown address", async ({
    browser,
  }) => {
    const { teacher } = await makeSchool(0);
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    const ask = async (p: Page, email: string) => {
      // the server action's answer, read on its way to the page (a browser keeps no body of a streamed fetch)
      let answer: { status: number; body: string; reqId: string | undefined } | undefined;
      await p.route("**/auth/forgot", async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        const res = await route.fetch();
        const body = await res.text();
        answer = { status: res.status(), body, reqId: res.headers()["x-request-id"] };
        await route.fulfill({ response: res, body });
      });
      await p.goto("/auth/forgot");
      await p.getByLabel("メールアドレス").fill(email);
      await p.getByRole("button", { name: /リンクを/ }).click();
      await expect(p.getByTestId("forgot-sent")).toBeVisible();
      await p.unrouteAll();
      return { ...answer!, shown: await p.locator("main").innerText() };
    };
    const existing = await ask(page, teacher.email!);
    const unknown = await ask(page, `nobody-${Date.now()}@test.example`);
    await context.close();
    expect({ status: existing.status, body: existing.body, shown: existing.shown }).toEqual({
      status: unknown.status,
      body: unknown.body,
      shown: unknown.shown,
    });
    expect(existing.status).toBe(200);

    await expect
      .poll(() => find(app, (l) => l.event === "mail.failed"))
      .toContainEqual(expect.objectContaining({ level: "error", userId: teacher.id, reqId: existing.reqId }));
    const failed = find(app, (l) => l.event === "mail.failed" && l.userId === teacher.id)[0]!;
    expect((failed.err as { stack?: string }).stack).toBeTruthy();
    const text = app.output.join("\n");
    expect(text).not.toContain(teacher.email!);
    expect(text).not.toContain("token=");
  });

  test("outside demo mode the demo mailbox does not exist (404)", async () => {
    const res = await fetch(`${app.url}/demo/mailbox`);
    expect(res.status).toBe(404);
  });
});
