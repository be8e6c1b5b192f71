/**
 * The manager's computer of the roster-load row (tools/bench/roster-load.ts), in a process of its
 * own: it is not the student's tablet, so sending a 62 MiB body and receiving the plan must not run
 * on the event loop that times the student's requests. Sends the body in UPLOAD_BODY (a file) with
 * UPLOAD_TYPE as its Content-Type to UPLOAD_URL with UPLOAD_COOKIE, writes the answer to UPLOAD_OUT
 * and exits after telling its status.
 */
import { readFileSync, writeFileSync } from "node:fs";

const url = process.env.UPLOAD_URL!;
const res = await fetch(url, {
  method: "POST",
  body: readFileSync(process.env.UPLOAD_BODY!),
  headers: {
    "content-type": process.env.UPLOAD_TYPE!,
    cookie: process.env.UPLOAD_COOKIE!,
    origin: new URL(url).origin,
  },
  signal: AbortSignal.timeout(600_000),
});
writeFileSync(process.env.UPLOAD_OUT!, new Uint8Array(await res.arrayBuffer()));
process.send!({ status: res.status });
process.disconnect();
