import http from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { type RunningCaddy, startCaddy } from "../support/caddy";
import { expectExactlyOnce, recordAcks } from "./acks";
import { E2E_METRICS_TOKEN, E2E_PORT } from "./config";
import { e2eDb, makeSchool } from "./db";
import { AppInstance, guideAcrossInstances, scenesSeen, watchScenes } from "./instance";

/**
 * Two production servers behind Debian's Caddy run with deploy/Caddyfile as an operator runs it without Docker
 * (round robin, no sticky sessions, TRUSTED_PROXY_HOPS=1): a live lesson whose teacher is on the main instance
 * streams to students through Caddy unbuffered, one
 * instance stopped with SIGTERM mid-lesson hands its students to the other without losing an answer or a scene,
 * and sign-in throttling counts each real client, whatever it writes in X-Forwarded-For.
 */
const CADDY_PORT = E2E_PORT + 53;
const CADDY_URL = `http://127.0.0.1:${CADDY_PORT}`;
const behindProxy = { TRUSTED_PROXY_HOPS: "1", AUTH_URL: CADDY_URL, METRICS_TOKEN: E2E_METRICS_TOKEN };
const instances = [
  new AppInstance(E2E_PORT + 51, undefined, behindProxy),
  new AppInstance(E2E_PORT + 52, undefined, behindProxy),
];
let caddy: RunningCaddy | undefined;

// one pair of instances and one Caddy for the file: its tests run one after the other in one worker
test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await Promise.all(instances.map((app) => app.start()));
  caddy = await startCaddy(
    CADDY_PORT,
    E2E_PORT + 54,
    instances.map((app) => `127.0.0.1:${app.port}`),
  );
});

test.afterAll(async () => {
  await caddy?.stop();
  await Promise.all(instances.map((app) => app.stop()));
});

/** The live event streams open in one instance (its /metrics). */
async function openStreams(app: AppInstance): Promise<number> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  return Number(/^manabiya_sse_streams_open (\S+)$/m.exec(await res.text())?.[1] ?? NaN);
}

async function answerChoice(kid: Page, option: string) {
  await kid.locator(`[data-option="${option}"] input`).check();
  await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 20_000 });
}

test("behind Caddy: students on two instances follow the teacher, and when one instance stops mid-lesson (SIGTERM) its students go on through the other, every scene in order and every answer stored exactly once", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { activity, scenes, students, teacherPage, kids, close } = await guideAcrossInstances(browser, CADDY_URL, 2);
  const recorded = kids.map((kid) => recordAcks(kid));
  for (const kid of kids) {
    await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
    expect(kid.url().startsWith(CADDY_URL)).toBe(true);
    // a stream Caddy buffered would never bring the first state: the screen would fall back to polling
    await expect(kid.getByTestId("live-session")).toHaveAttribute("data-transport", "stream");
    await watchScenes(kid);
  }
  const next = async (position: number) => {
    await teacherPage.getByTestId("guide-next").click();
    await expect(teacherPage.getByTestId("guide-console")).toHaveAttribute("data-scene-id", scenes[position]!.id);
  };
  await teacherPage.getByTestId("start-session").click();
  for (const kid of kids) await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes[0]!.id);
  await next(1);
  await next(2);
  for (const kid of kids) await answerChoice(kid, "clear");

  // each student's stream is open on one instance through Caddy (a stream the browser left, such as the home page's,
  // ends when a heartbeat finds it closed): stop the instance that holds most of them
  const streamsOf = () => Promise.all(instances.map(openStreams));
  await expect.poll(async () => (await streamsOf()).reduce((a, b) => a + b), { timeout: 45_000 }).toBe(kids.length);
  const counts = await streamsOf();
  const stopping = counts[0]! >= counts[1]! ? 0 : 1;
  const survivor = instances[1 - stopping]!;
  const exit = await instances[stopping]!.stop();
  expect(exit).toMatchObject({ code: 0, signal: null });
  // the lesson goes on meanwhile: every student is on the other instance now, still streaming
  await next(3);
  for (const kid of kids) {
    await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes[3]!.id, { timeout: 20_000 });
    await expect(kid.getByTestId("live-session")).toHaveAttribute("data-transport", "stream");
  }
  await expect.poll(() => openStreams(survivor)).toBe(kids.length);
  await next(4);
  for (const [i, kid] of kids.entries()) {
    await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes[4]!.id);
    await kid.locator("textarea.answer-text").fill(`続きから答えます${i}`);
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 20_000 });
  }
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-connected", "2");

  for (const [i, kid] of kids.entries()) {
    expect(await scenesSeen(kid, scenes)).toEqual([0, 1, 2, 3, 4]);
    await expectExactlyOnce(
      e2eDb(),
      { activityId: activity.id, userId: students[i]!.id },
      recorded[i]!,
      new Map<string, unknown>([
        [scenes[2]!.id, { choice: "clear" }],
        [scenes[4]!.id, { text: `続きから答えます${i}` }],
      ]),
    );
  }
  await close();
  await instances[stopping]!.start();
});

/** One HTTP request to Caddy from the local address `from` (a client of its own), as a script sends it. */
function fromClient(
  from: string,
  method: "GET" | "POST",
  path: string,
  headers: Record<string, string> = {},
  body = "",
): Promise<{ status: number; setCookies: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: CADDY_PORT,
        localAddress: from,
        method,
        path,
        headers: { ...headers, host: `127.0.0.1:${CADDY_PORT}` },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, setCookies: res.headers["set-cookie"] ?? [], body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A wrong password for `email` from the client at `from`, with an X-Forwarded-For of its own when given. */
async function wrongPassword(from: string, email: string, forwardedFor?: string) {
  const csrf = await fromClient(from, "GET", "/api/auth/csrf");
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const form = new URLSearchParams({ email, password: "not-the-password", csrfToken }).toString();
  const res = await fromClient(
    from,
    "POST",
    "/api/auth/callback/password",
    {
      cookie: csrf.setCookies.map((c) => c.split(";")[0]).join("; "),
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(Buffer.byteLength(form)),
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
    form,
  );
  expect(res.status).toBeLessThan(500);
}

/** The sign-in log of `email`: each attempt's outcome and the client address it was counted against, in order. */
async function attempts(email: string) {
  const rows = await e2eDb().auditLog.findMany({
    where: { action: { startsWith: "signin.password." }, meta: { path: ["email"], equals: email } },
    orderBy: { id: "asc" },
    select: { action: true, ip: true },
  });
  return rows.map((r) => `${r.action} ${r.ip}`);
}

test("behind Caddy: sign-in throttling counts each real client (not the proxy), and an X-Forwarded-For written by the client does not escape it", async () => {
  test.setTimeout(120_000);
  const { students } = await makeSchool(2);
  const [flooder, neighbour] = ["127.0.0.3", "127.0.0.4"];
  // the first client has flooded the sign-in: its address is over the ceiling
  await e2eDb().signinThrottle.upsert({
    where: { key: `ip:${flooder}` },
    create: { key: `ip:${flooder}`, failures: 100_000, windowStart: new Date() },
    update: { failures: 100_000, windowStart: new Date() },
  });
  // it tries again, each time claiming another address: Caddy puts the address it saw in the header instead
  await wrongPassword(flooder, students[0]!.email!, "198.51.100.1");
  await wrongPassword(flooder, students[0]!.email!, "198.51.100.2, 198.51.100.3");
  expect(await attempts(students[0]!.email!)).toEqual([
    `signin.password.failure ${flooder}`,
    `signin.password.throttled ${flooder}`,
  ]);
  // another client behind the same proxy is counted on its own, and is not throttled
  await wrongPassword(neighbour, students[1]!.email!);
  await wrongPassword(neighbour, students[1]!.email!);
  expect(await attempts(students[1]!.email!)).toEqual([
    `signin.password.failure ${neighbour}`,
    `signin.password.failure ${neighbour}`,
  ]);
  expect((await e2eDb().signinThrottle.findUnique({ where: { key: `ip:${neighbour}` } }))?.failures).toBe(2);
  expect(await e2eDb().signinThrottle.count({ where: { key: { startsWith: "ip:198.51.100." } } })).toBe(0);
});
