/**
 * The limit the live fan-out is compared with: a bare Node SSE server that
 * holds the same number of streams and writes one event to all of them when
 * told (POST /fire), with no database, no session and no framework.
 * Run as its own process: `tsx tools/bench/echo-server.ts <port>`.
 */
import http from "node:http";

const port = Number(process.argv[2]);
const streams = new Set<http.ServerResponse>();
http
  .createServer((req, res) => {
    if (req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const event = `event: state\ndata: ${body}\n\n`;
        for (const s of streams) s.write(event);
        res.end("ok");
      });
      return;
    }
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    res.write(": open\n\n");
    streams.add(res);
    req.on("close", () => streams.delete(res));
  })
  .listen(port, "127.0.0.1", () => process.send?.("ready"));
