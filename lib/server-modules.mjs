/**
 * For a process or thread of the app's own that is not Next's server (the sign-in sheets renderer,
 * the roster upload thread): loads the app's TypeScript modules through tsx, and makes
 * `import "server-only"` (which throws outside Next's server bundle) the empty module it is in
 * that bundle. Plain JavaScript, loaded by path at run time.
 */
import { register as registerHooks } from "node:module";

export async function registerServerModules() {
  const { register } = await import("tsx/esm/api");
  register();
  registerHooks(
    `data:text/javascript,${encodeURIComponent(
      'export async function resolve(specifier, context, next) { return specifier === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(specifier, context); }',
    )}`,
  );
}
