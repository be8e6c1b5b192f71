import "server-only";
import type { NextRequest } from "next/server";
import type { Role } from "@/platform/auth/roles";
import { type Actor, getActor } from "@/platform/auth/session";
import { problem } from "@/platform/http";
import { sameOrigin } from "@/platform/security/headers";

/** The methods that change nothing: a request with any other must come from the app's own pages. */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

/**
 * The one way a route handler serves a signed-in user, as defineAction is for server actions
 * (docs/architecture.md "Authorisation in three layers"): a request that may change something (any
 * method but GET and HEAD) from another site's page → 403 FORBIDDEN; nobody signed in, or an
 * account disabled since sign-in → 401 UNAUTHENTICATED (the actor read from the database:
 * getActor); a role not in `roles` → 403 FORBIDDEN; then `run` with the actor, which checks the
 * school or academy scope itself. Each refusal is `problem(status, code)` (JSON, never cached). What
 * `run` throws is not caught: Next.js answers 500, as for any handler. The handler takes the request
 * and the route's own values (an id from the path), and hands them to `run` after the actor.
 */
export function defineRoute<A extends unknown[] = []>(options: {
  roles: readonly Role[];
  run: (req: NextRequest, actor: Actor, ...args: A) => Promise<Response>;
}): (req: NextRequest, ...args: A) => Promise<Response> {
  return async (req, ...args) => {
    if (!SAFE_METHODS.has(req.method) && !sameOrigin(req.headers, req.url)) return problem(403, "FORBIDDEN");
    const actor = await getActor();
    if (!actor || actor === "disabled") return problem(401, "UNAUTHENTICATED");
    if (!options.roles.includes(actor.role)) return problem(403, "FORBIDDEN");
    return options.run(req, actor, ...args);
  };
}
