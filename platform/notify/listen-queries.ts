import type pg from "pg";
import { createConnection } from "@/platform/db/pools";
import { LIVE_CHANNEL } from "./channel";

/** The live listener's connection (not yet open), to the app's database unless `databaseUrl` names another (a test's). */
export function createListenConnection(databaseUrl: string | undefined): pg.Client {
  return createConnection({ url: databaseUrl, applicationName: "manabiya-live" });
}

/** Opens `client` and listens on the live channel. */
export async function listenLive(client: pg.Client): Promise<void> {
  await client.connect();
  await client.query(`LISTEN ${LIVE_CHANNEL}`);
}

/** Whether the listening connection answers a trivial query (false on an error; the caller bounds the wait). */
export function pingListener(client: pg.Client): Promise<boolean> {
  return client.query("select 1").then(
    () => true,
    () => false,
  );
}
