/**
 * The child process that works the learning records' queues (features/lti/server/xapi-queue.ts starts it once an
 * academy has an LRS): it records the statements of the answers the server's saves publish and sends them to the
 * academies' LRSs, so that building and storing them never takes the event loop that answers the saves. Every thread
 * of it runs at the lowest CPU priority (platform/ops/lowest-priority.mjs): it runs when no server thread wants the
 * core, and catches up when the class stops saving. Plain JavaScript, loaded by path at run time and not bundled by
 * Next; the TypeScript modules are loaded through tsx (startIdleChild, platform/server-modules.mjs). It runs until
 * its parent goes; a job it held then (or when it is killed) is tried again when pg-boss expires it, within two
 * minutes (xapi-queue.ts EXPIRE_S; recording again stores nothing twice).
 */
import { startIdleChild } from "../../../platform/server-modules.mjs";

const [{ startXapiWorkers }, { jobQueue }, { listenForeground }] = await startIdleChild(import.meta.url, [
  "./xapi-queue.ts",
  "../../../platform/queue/commands.ts",
  "../../../platform/ops/foreground.ts",
]);

// the server's answer saves: the workers' database work waits for a burst of them to end (foregroundQuiet)
listenForeground();
await startXapiWorkers(await jobQueue());
process.send?.({ working: true });
