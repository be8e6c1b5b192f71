/**
 * The teacher's computer of the fan-out-while-printing row (tools/bench/print-load.ts), in a
 * process of its own: it is not the students' tablets, so the PDFs it receives (megabytes each) must not
 * be received on the event loop that times the students' events. Started with the app's URL
 * and the teacher's cookie in PRINT_URL and PRINT_COOKIE; "print" prints once, "start" prints
 * one after another until "stop"; each answers with the prints' times (ms) or an error.
 */
const url = process.env.PRINT_URL!;
const cookie = process.env.PRINT_COOKIE!;
const send = (message: unknown) => process.send!(message);

async function print(): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/api/students/sheets`, {
    method: "POST",
    body: new URLSearchParams({ class: "1:1" }),
    headers: { Cookie: cookie },
    signal: AbortSignal.timeout(300_000),
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200 || bytes < 100_000) throw new Error(`print refused: HTTP ${res.status}, ${bytes} bytes`);
  return performance.now() - t;
}

let printing = false;
let loop: Promise<number[]> | undefined;
process.on("message", (command: "print" | "start" | "stop") => {
  const answer = (work: Promise<number[]>) =>
    work.then(
      (times) => send({ times }),
      (error: unknown) => send({ error: String(error) }),
    );
  if (command === "print") void answer(print().then((t) => [t]));
  else if (command === "start") {
    printing = true;
    loop = (async () => {
      const times: number[] = [];
      while (printing) times.push(await print());
      return times;
    })();
  } else if (command === "stop") {
    printing = false;
    void answer(loop ?? Promise.resolve([]));
  }
});
process.on("disconnect", () => process.exit(0));
send({ ready: true });
