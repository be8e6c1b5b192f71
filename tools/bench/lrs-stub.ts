/**
 * An academy's LRS for the learning records' row (xapi-load.ts), as a process of its own as an LRS is: takes every
 * POST of statements (200, their ids) and counts them. Sends `{ port }` once it listens and `{ received }` when sent
 * "count". Run with `fork(…, { execArgv: ["--import", "tsx"] })`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

let received = 0;
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString("utf8")));
  req.on("end", () => {
    const statements = JSON.parse(body) as { id: string }[];
    received += statements.length;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(statements.map((s) => s.id)));
  });
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on("message", (m) => {
  if (m === "count") process.send?.({ received });
});
process.on("disconnect", () => server.close(() => process.exit(0)));
