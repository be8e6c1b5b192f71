/**
 * The teacher's computer of the fan-out-beside-heavy-work rows (tools/bench/print-load.ts, slides-load.ts), in a
 * process of its own: it is not the students' tablets, so what it sends and receives (megabytes each) is not
 * handled on the event loop that times the students' events. Started with the app's URL and the teacher's
 * cookie in BUSY_URL and BUSY_COOKIE and the job in BUSY_JOB: `sheets` prints a class's 1,000 sign-in cards;
 * `slides` brings the PDF in BUSY_PDF into the next of the activities in BUSY_ACTIVITIES (JSON, `{ id, version }`
 * each) as scenes. "run" does the job once, "start" one after another until "stop"; each answers with the
 * jobs' times (ms) or an error.
 */
import { readFileSync } from "node:fs";

const url = process.env.BUSY_URL!;
const cookie = process.env.BUSY_COOKIE!;
const job = process.env.BUSY_JOB as "sheets" | "slides";
const send = (message: unknown) => process.send!(message);

async function print(): Promise<void> {
  const res = await fetch(`${url}/api/students/sheets`, {
    method: "POST",
    body: new URLSearchParams({ class: "1:1" }),
    headers: { Cookie: cookie },
    signal: AbortSignal.timeout(300_000),
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200 || bytes < 100_000) throw new Error(`print refused: HTTP ${res.status}, ${bytes} bytes`);
}

const activities =
  job === "slides" ? (JSON.parse(process.env.BUSY_ACTIVITIES!) as { id: string; version: number }[]) : [];
const pdf = job === "slides" ? readFileSync(process.env.BUSY_PDF!) : Buffer.alloc(0);
let turn = 0;

async function importSlides(): Promise<void> {
  const activity = activities[turn++ % activities.length]!;
  const res = await fetch(`${url}/api/v1/activities/${activity.id}/slides?version=${activity.version}&name=bench`, {
    method: "POST",
    body: new Uint8Array(pdf),
    headers: { Cookie: cookie, "Content-Type": "application/pdf", Origin: url },
    signal: AbortSignal.timeout(300_000),
  });
  const last = JSON.parse((await res.text()).trim().split("\n").at(-1) ?? "{}") as {
    ok?: boolean;
    data?: { version: number };
    problem?: string;
  };
  if (res.status !== 200 || !last.ok) throw new Error(`import refused: HTTP ${res.status}, ${last.problem ?? "?"}`);
  activity.version = last.data!.version;
}

async function once(): Promise<number> {
  const t = performance.now();
  await (job === "slides" ? importSlides() : print());
  return performance.now() - t;
}

let busy = false;
let loop: Promise<number[]> | undefined;
process.on("message", (command: "run" | "start" | "stop") => {
  const answer = (work: Promise<number[]>) =>
    work.then(
      (times) => send({ times }),
      (error: unknown) => send({ error: String(error) }),
    );
  if (command === "run") void answer(once().then((t) => [t]));
  else if (command === "start") {
    busy = true;
    loop = (async () => {
      const times: number[] = [];
      while (busy) times.push(await once());
      return times;
    })();
  } else if (command === "stop") {
    busy = false;
    void answer(loop ?? Promise.resolve([]));
  }
});
process.on("disconnect", () => process.exit(0));
send({ ready: true });
