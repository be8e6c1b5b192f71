/**
 * The sign-in rows: 1,000 QR sign-ins from one address (a school behind its
 * NAT) and 40 simultaneous password sign-ins. Every response of every step
 * is checked for throttling (HTTP 429, the "tooManyRequests" result or the
 * sign-in page it redirects to): a legitimate sign-in throttled fails the
 * row. A control, one wrong code tried until the throttle stops it, shows
 * that the count sees throttling at all.
 */
import { SESSION_COOKIE } from "@/platform/auth/cookies";
import { LIMITS } from "@/platform/auth/throttle";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { BENCH_PASSWORD, SECRETS, type BenchData, type RunningApp } from "./app";
import { isThrottled, tallyOutcomes } from "./checks";
import { cpuSplit } from "./cpu";
import { actionId, callAction, median, percentile, type Reply, request, setCookies } from "./http";
import type { Row } from "./verdict";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${Math.round(x)} ms`;
const LIMIT_MS = 2_000;

/** The QR flow of one student: the code URL, the page, the sign-in action. Returns null (signed in), "throttled" or the failure. */
async function codeSignIn(app: RunningApp, action: string, code: string): Promise<string | null> {
  const step = (name: string, reply: Reply, expected: number) =>
    isThrottled(reply) ? "throttled" : reply.status !== expected ? `${name} ${reply.status}` : null;
  const first = await request(`${app.url}/auth/auth-with-code?code=${encodeURIComponent(code)}`);
  const pending = setCookies(first)["manabiya-pending-code"];
  const firstFailure = step("redirect", first, 307) ?? (pending ? null : "redirect without the code's cookie");
  if (firstFailure) return firstFailure;
  const cookie = `manabiya-pending-code=${pending}`;
  const page = await request(`${app.url}/auth/auth-with-code`, { headers: { Cookie: cookie } });
  const pageFailure = step("page", page, 200);
  if (pageFailure) return pageFailure;
  const reply = await callAction(app.url, "/auth/auth-with-code", action, [], cookie);
  const actionFailure = step("action", reply, 200);
  if (actionFailure) return actionFailure;
  if (!reply.body.includes('"ok":true') || !setCookies(reply)[SESSION_COOKIE]) return "refused";
  return null;
}

const listed = (failures: Record<string, number>) =>
  Object.entries(failures)
    .map(([k, v]) => `${k} ×${v}`)
    .join(", ");

/** 1,000 QR sign-ins from one address spread over 30 s, and the control that shows throttling is seen. */
async function codeStormRow(app: RunningApp, data: BenchData): Promise<Row> {
  const action = actionId("platform/auth/actions.ts", "signInWithCode");
  const students = data.students.slice(0, 1000);
  const latencies: number[] = [];
  const outcomes: (string | null)[] = [];
  const spreadMs = 30_000;
  const t0 = performance.now();
  const { split } = await cpuSplit(app, () =>
    Promise.all(
      students.map(async (s, i) => {
        await sleep((i * spreadMs) / students.length);
        const t = performance.now();
        outcomes.push(await codeSignIn(app, action, s.code).catch((e: unknown) => String(e)));
        latencies.push(performance.now() - t);
      }),
    ),
  );
  const wall = (performance.now() - t0) / 1000;
  const tally = tallyOutcomes(outcomes);

  // the control: a well-formed code nobody has, tried one more time than the limit per code allows
  const wrong = sealNewCode(SECRETS.SIGNIN_CODE_KEY).code;
  const control: (string | null)[] = [];
  for (let i = 0; i <= LIMITS.code; i++)
    control.push(await codeSignIn(app, action, wrong).catch((e: unknown) => String(e)));
  const controlThrottled = tallyOutcomes(control).throttled;

  const p99 = percentile(latencies, 99);
  const codeRow: Row = {
    scenario: `sign-in storm: 1,000 QR sign-ins from one address in ${Math.round(wall)} s`,
    target: `every sign-in succeeds, none throttled (429 or the throttled answer), p99 < ${LIMIT_MS / 1000} s; the control (one wrong code tried ${LIMITS.code + 1} times) is throttled`,
    measured:
      `p99 ${ms(p99)} (p50 ${ms(median(latencies))}) for the whole QR flow (link → page → sign-in); ${tally.ok} signed in, ${tally.throttled} throttled, ${tally.failed} failed otherwise` +
      `${tally.failed + tally.throttled ? ` (${listed(tally.failures)})` : ""}; control: ${controlThrottled} of ${control.length} wrong tries throttled; ${split}`,
    ratio: p99 / LIMIT_MS,
    ok: tally.ok === students.length && p99 < LIMIT_MS && controlThrottled > 0,
  };
  return codeRow;
}

/** 40 teachers press "sign in" at the same moment (next-auth's credentials endpoint: the same argon2 check as the form). */
async function passwordStormRow(app: RunningApp, data: BenchData): Promise<Row> {
  const teachers = data.classes.slice(0, 40).map((c) => c.teacher);
  const prepared = await Promise.all(
    teachers.map(async () => {
      const csrf = await request(`${app.url}/api/auth/csrf`);
      const cookie = Object.entries(setCookies(csrf))
        .map(([k, v]) => `${k}=${v}`)
        .join("; ");
      return { cookie, token: (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken };
    }),
  );
  const pwLatencies: number[] = [];
  const pwOutcomes: (string | null)[] = [];
  await Promise.all(
    teachers.map(async (t, i) => {
      const body = new URLSearchParams({
        email: t.email,
        password: BENCH_PASSWORD,
        csrfToken: prepared[i]!.token,
        callbackUrl: "/",
      }).toString();
      const start = performance.now();
      const reply = await request(`${app.url}/api/auth/callback/password`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: prepared[i]!.cookie, Origin: app.url },
        body,
      });
      pwLatencies.push(performance.now() - start);
      pwOutcomes.push(
        isThrottled(reply)
          ? "throttled"
          : setCookies(reply)[SESSION_COOKIE]
            ? null
            : `HTTP ${reply.status} without a session`,
      );
    }),
  );
  const pw = tallyOutcomes(pwOutcomes);
  const pwP99 = percentile(pwLatencies, 99);
  const pwRow: Row = {
    scenario: "40 simultaneous password sign-ins (argon2id 19 MiB, t=2)",
    target: `every sign-in succeeds, none throttled, p99 < ${LIMIT_MS / 1000} s`,
    measured: `p99 ${ms(pwP99)} (p50 ${ms(median(pwLatencies))}); ${pw.ok} signed in, ${pw.throttled} throttled, ${pw.failed} failed otherwise${pw.failed + pw.throttled ? ` (${listed(pw.failures)})` : ""}`,
    ratio: pwP99 / LIMIT_MS,
    ok: pw.ok === teachers.length && pwP99 < LIMIT_MS,
  };
  return pwRow;
}

export async function signinStorm(app: RunningApp, data: BenchData): Promise<Row[]> {
  const codeRow = await codeStormRow(app, data);
  const pwRow = await passwordStormRow(app, data);
  return [codeRow, pwRow];
}
