/**
 * The headline and the answer burst again with the app's DATABASE_URL through Debian's PgBouncer in
 * transaction mode (tests/support/pgbouncer.ts) and DATABASE_DIRECT_URL on the cluster itself, as
 * docs/scaling.md deploys it: the rows sit beside the direct ones of the same run.
 */
import { startPgBouncer } from "../../tests/support/pgbouncer";
import { answerBurst } from "./answers";
import { type BenchData, startApp } from "./app";
import { headlineRow } from "./scenarios";
import type { Row } from "./verdict";

const LABEL = " (through PgBouncer, transaction mode)";

export async function throughPgBouncer({ url, data }: { url: string; data: BenchData }): Promise<Row[]> {
  const direct = new URL(url);
  const bouncer = await startPgBouncer(url, Number(direct.port) + 3);
  const pooled = new URL(url);
  pooled.port = String(bouncer.port);
  try {
    const app = await startApp(pooled.href, 1, { DATABASE_DIRECT_URL: url });
    try {
      const headline = await headlineRow(app, data, LABEL);
      const burst = await answerBurst(app, data, url);
      return [headline, { ...burst, scenario: `${burst.scenario}${LABEL}` }];
    } finally {
      await app.stop();
    }
  } finally {
    await bouncer.stop();
  }
}
