/**
 * How every production web server process is started (`npm start`, the Docker image through it,
 * the end-to-end tests' second instance, the bench): node's flags, then scripts/server.ts.
 *
 * `--max-semi-space-size=64` (MB): a young generation large enough that what a request keeps for
 * a few hundred milliseconds (a 1,000-card print reads and builds its cards a chunk at a time)
 * dies young instead of being promoted. With node's default (16 MB), every print or two
 * promoted enough to start a full collection of the server's ~130 MB heap, and its pauses held
 * a class's live events back (the bench's fan-out while printing: p99 2.8× the quiet one,
 * 0.9–1.4× with this; docs/benchmarks.md). It costs up to about 190 MB more memory per
 * process at the busiest (docs/scaling.md).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64"];

/** The argv after node's path: `extra` node flags (a profiler's), then the server. */
export function serverArgs(extra: string[] = []): string[] {
  return [...SERVER_NODE_FLAGS, ...extra, "--import", "tsx", "scripts/server.ts"];
}
