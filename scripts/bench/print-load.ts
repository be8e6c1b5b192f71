/**
 * Issue #17 point 14: sign-in sheets are rendered off the event loop that serves live classes.
 * The row: live fan-out to one class of 40 students, quiet and then while a teacher prints
 * 1,000 sign-in cards (the real sheets route, print after print for the whole measurement),
 * in the same run; target: the loaded p99 under 1.5× the quiet one.
 */
import { createPrismaClient } from "@/lib/db-client";
import { sealNewCode } from "@/lib/signin-codes/crypto";
import { type BenchData, type RunningApp, SECRETS } from "./app";
import { median, sessionCookie } from "./http";
import { liveFanout, type Row } from "./scenarios";

const CARDS = 1000;
const ROUNDS = 30;

/** A school of its own in the bench academy: a teacher and 1,000 students with sign-in codes. */
async function seedPrintSchool(databaseUrl: string): Promise<string> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const { academyId } = await db.school.findFirstOrThrow({ select: { academyId: true } });
    const school = await db.school.create({ data: { academyId, name: "ベンチ印刷中学校", nameKana: "べんちいんさつちゅうがっこう" } });
    const teacher = await db.user.create({ data: { role: "teacher", groupType: "school", schoolId: school.id, email: "print@bench.example", name: "印刷 先生" } });
    const ids = Array.from({ length: CARDS }, () => crypto.randomUUID());
    await db.user.createMany({ data: ids.map((id, n) => ({ id, role: "student" as const, groupType: "school" as const, schoolId: school.id, name: `印刷 生徒${n + 1}` })) });
    await db.studentDetail.createMany({ data: ids.map((userId, n) => ({ userId, grade: 1, className: "1", number: n + 1, counterbalanceGroup: n % 2 ? "A" : "B" })) });
    await db.signinCode.createMany({ data: ids.map((userId) => ({ userId, ...sealNewCode(SECRETS.SIGNIN_CODE_KEY), code: undefined })) });
    return teacher.id;
  } finally {
    await db.$disconnect();
  }
}

export async function fanoutWhilePrinting(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const cookie = await sessionCookie(await seedPrintSchool(databaseUrl), "teacher");
  const printTimes: number[] = [];
  const print = async () => {
    const t = performance.now();
    const res = await fetch(`${app.url}/api/students/sheets`, { method: "POST", body: new URLSearchParams({ class: "1" }), headers: { Cookie: cookie }, signal: AbortSignal.timeout(300_000) });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200 || bytes < 100_000) throw new Error(`print refused: HTTP ${res.status}, ${bytes} bytes`);
    printTimes.push(performance.now() - t);
  };
  await print(); // warm-up: the worker starts, fonts load
  printTimes.length = 0;
  const classes = data.classes.slice(0, 1);
  const quiet = await liveFanout(app, classes, ROUNDS);
  let printing = true;
  const prints = (async () => {
    while (printing) await print();
  })();
  let loaded: Awaited<ReturnType<typeof liveFanout>>;
  try {
    loaded = await liveFanout(app, classes, ROUNDS);
  } finally {
    printing = false;
    await prints;
  }
  const ratio = loaded.p99 / Math.max(quiet.p99, 0.1);
  const ok = ratio < 1.5 && loaded.missed === 0 && loaded.disordered === 0;
  return {
    scenario: `live fan-out to 40 students while a teacher prints ${CARDS} sign-in cards (print after print), beside the same without printing`,
    measured:
      `p99 ${Math.round(loaded.p99)} ms printing vs ${Math.round(quiet.p99)} ms quiet → ${ratio.toFixed(2)}× (p50 ${Math.round(loaded.p50)} vs ${Math.round(quiet.p50)} ms; ` +
      `${printTimes.length} prints, median ${Math.round(median(printTimes))} ms each; missed ${loaded.missed}, out of order ${loaded.disordered})`,
    target: "p99 while printing < 1.5× the quiet p99, none missed or out of order",
    ok,
  };
}
