import "server-only";
import type { z } from "zod";
import type { Role } from "@/platform/auth/roles";
import { type Actor, getActor } from "@/platform/auth/session";
import { type ActionResult, fail, fieldErrorsOf } from "@/platform/errors";
import { errorField, log } from "@/platform/ops/log";

/**
 * The one way to write (docs/architecture.md "Authorisation in three layers"): parse the input with
 * zod → load the actor from the database → check the role → run (which
 * checks school/academy scope and writes in a transaction) → a result with a
 * closed-set code. Unexpected errors are logged and become INTERNAL; nothing
 * of them reaches the client.
 */
export function defineAction<S extends z.ZodType, T>(options: {
  name: string;
  schema: S;
  roles: readonly Role[];
  run: (input: z.infer<S>, actor: Actor) => Promise<ActionResult<T>>;
}) {
  return async (raw: unknown): Promise<ActionResult<T>> => {
    const parsed = options.schema.safeParse(raw);
    if (!parsed.success) return fail("VALIDATION", fieldErrorsOf(parsed.error.issues));
    const actor = await getActor();
    if (!actor || actor === "disabled") return fail("UNAUTHENTICATED");
    if (!options.roles.includes(actor.role)) return fail("FORBIDDEN");
    try {
      return await options.run(parsed.data, actor);
    } catch (error) {
      log().error(
        { event: "action.failed", action: options.name, userId: actor.id, ...errorField(error) },
        "server action failed",
      );
      return fail("INTERNAL");
    }
  };
}
