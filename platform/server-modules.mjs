/**
 * For a child process of the app's own that is not Next's server (the sign-in sheets renderer, a
 * roster upload's worker): loads the app's TypeScript modules through tsx, and makes
 * `import "server-only"` (which throws outside Next's server bundle) the empty module it is in that
 * bundle. Plain JavaScript, loaded by path at run time.
 */
import { register as registerHooks } from "node:module";
import { lowestPriority } from "./ops/lowest-priority.mjs";

/**
 * A child's start: every thread at the lowest CPU priority (platform/ops/lowest-priority.mjs), an exit when
 * its parent goes, then the TypeScript modules it names (paths relative to `from`, the caller's
 * `import.meta.url`), loaded in order, and the priority again for any thread started while loading.
 */
export async function startIdleChild(from, specifiers) {
  lowestPriority();
  process.on("disconnect", () => process.exit(0));
  await registerServerModules();
  const modules = [];
  for (const specifier of specifiers) modules.push(await import(new URL(specifier, from).href));
  lowestPriority();
  return modules;
}

async function registerServerModules() {
  const { register } = await import("tsx/esm/api");
  register();
  registerHooks(
    `data:text/javascript,${encodeURIComponent(
      'export async function resolve(specifier, context, next) { return specifier === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(specifier, context); }',
    )}`,
  );
}
