import pg from "pg";
import { createAdvanceEndpoint } from "@/features/play/server/advance-endpoint";
import { LIVE_CHANNEL } from "@/platform/notify/channel";
import { serveEndpoint, testDatabaseUrl } from "./helpers";

/**
 * The production advance endpoint (features/play/server/advance-endpoint.ts) on a port of its own, with a
 * listener on the live channel whose payloads land in `notified` (empty it before a step), and a
 * count of the requests it has received.
 */
export async function advanceEndpointListened(poolSize = 2) {
  const notified: string[] = [];
  const listener = new pg.Client({ connectionString: testDatabaseUrl() });
  await listener.connect();
  listener.on("notification", (n) => notified.push(n.payload ?? ""));
  await listener.query(`LISTEN ${LIVE_CHANNEL}`);
  const endpoint = createAdvanceEndpoint({
    databaseUrl: testDatabaseUrl(),
    authSecret: process.env.AUTH_SECRET!,
    production: true,
    poolSize,
  });
  const { server, port } = await serveEndpoint(endpoint);
  let requests = 0;
  server.on("request", () => void (requests += 1));
  const close = async () => {
    server.close();
    await endpoint.close();
    await listener.end();
  };
  /** requests the endpoint's server has received so far */
  const received = () => requests;
  return { notified, endpoint, port, close, received };
}
