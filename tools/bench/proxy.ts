/**
 * The load balancer of a scaled-out deployment, in miniature, in a process of
 * its own (as Caddy or nginx is in front of a real deployment: tools/bench/app.ts
 * starts it): each request (a stream included) goes to the next instance in
 * turn; the Host header is kept, as a real balancer does. Running it inside
 * the load client would make every event of 2,000 streams wait on the same
 * event loop as the clients that measure it.
 *
 *   node --import tsx tools/bench/proxy.ts LISTEN_PORT UPSTREAM_PORT...
 */
import http from "node:http";

const [listen, ...upstreams] = process.argv.slice(2).map(Number);
if (!listen || upstreams.length === 0 || upstreams.some((p) => !p)) {
  console.error("usage: proxy.ts LISTEN_PORT UPSTREAM_PORT...");
  process.exit(2);
}
let next = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4096 });
const server = http.createServer((req, res) => {
  const port = upstreams[next++ % upstreams.length]!;
  const upstream = http.request(
    { host: "127.0.0.1", port, path: req.url, method: req.method, headers: req.headers, agent },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
});
server.maxConnections = 16_384;
server.listen(listen, "127.0.0.1", () => process.send?.("listening"));
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
