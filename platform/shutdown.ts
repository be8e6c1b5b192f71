/**
 * What must end before the process exits on SIGTERM (server/main.ts): open
 * event streams are closed so their browsers reconnect (to another instance
 * behind the load balancer) instead of waiting on a dead socket. One registry
 * per process, shared through globalThis by the server script and every route
 * bundle of Next.js (each has its own copy of this module).
 */
import { errorField, log } from "@/platform/ops/log";

type Hook = () => void;

const shared = globalThis as unknown as { manabiyaShutdownHooks?: Set<Hook> };
const hooks = (): Set<Hook> => (shared.manabiyaShutdownHooks ??= new Set());

/** Runs `hook` at shutdown; the returned function removes it (call it when the work ends by itself). */
export function onShutdown(hook: Hook): () => void {
  hooks().add(hook);
  return () => void hooks().delete(hook);
}

/** Runs every hook once; how many there were. */
export function runShutdownHooks(): number {
  const all = [...hooks()];
  hooks().clear();
  for (const hook of all) {
    try {
      hook();
    } catch (error) {
      log().error({ event: "shutdown.hook.failed", ...errorField(error) }, "shutdown: a hook failed");
    }
  }
  return all.length;
}
