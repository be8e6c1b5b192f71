import http from "node:http";
import type { AddressInfo } from "node:net";

/** An LRS over real HTTP taking every POST of statements (200, their ids), keeping them. */
export async function acceptingLrs() {
  const statements: { id: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const got = JSON.parse(body) as { id: string }[];
      statements.push(...got);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(got.map((s) => s.id)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { statements, endpoint: `http://127.0.0.1:${port}/xapi`, close: () => new Promise((r) => server.close(r)) };
}
