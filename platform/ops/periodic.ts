import "server-only";
import { errorField, log } from "@/platform/ops/log";
import { onShutdown } from "@/platform/shutdown";

/**
 * Runs `job` every `everyMs` in this process (the first run a few minutes after start, so that a start is not slowed),
 * until shutdown. A failure is logged as `<name>.failed` and the next run comes as planned.
 */
export function schedulePeriodic(name: string, everyMs: number, job: () => Promise<unknown>): void {
  const run = () =>
    void job().catch((error: unknown) =>
      log().error({ event: `${name}.failed`, ...errorField(error) }, `${name}: the periodic job failed`),
    );
  const first = setTimeout(run, 2 * 60 * 1000 + Math.floor(Math.random() * 60_000));
  const every = setInterval(run, everyMs);
  first.unref();
  every.unref();
  onShutdown(() => {
    clearTimeout(first);
    clearInterval(every);
  });
}
