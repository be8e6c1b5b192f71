import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { defineAction } from "@/platform/http/action";
import type { Role } from "@/platform/auth/roles";
import { type ActionResult, fail } from "@/platform/errors";
import { type AuthorizedSchoolId, authorizeSchool } from "../../../platform/auth/scope";

export interface SchoolCtx {
  schoolId: AuthorizedSchoolId;
  actorId: string;
}

/**
 * An action on one school's data: the wrapper's role check, then the scope
 * check (teacher: own school; manager: a school of the own academy, named by
 * the input's `schoolId`), then `run` with the authorised school id, then
 * revalidation of the given paths.
 */
export function defineSchoolAction<S extends z.ZodType, T>(options: {
  name: string;
  schema: S;
  roles: readonly Role[];
  revalidate: string[];
  run: (ctx: SchoolCtx, input: z.infer<S>) => Promise<ActionResult<T>>;
}) {
  return defineAction({
    name: options.name,
    schema: options.schema,
    roles: options.roles,
    async run(input, actor) {
      const requested = (input as { schoolId?: unknown }).schoolId;
      const schoolId = await authorizeSchool(actor, typeof requested === "string" ? requested : undefined);
      if (!schoolId) return fail("FORBIDDEN");
      const result = await options.run({ schoolId, actorId: actor.id }, input);
      for (const path of options.revalidate) revalidatePath(path, "layout");
      return result;
    },
  });
}

/**
 * An action on the acting manager's own academy (its id read from the
 * database actor, never from the input): managers only, then `run`, then
 * revalidation of the given paths.
 */
export function defineAcademyAction<S extends z.ZodType, T>(options: {
  name: string;
  schema: S;
  revalidate: string[];
  run: (ctx: { academyId: string; actorId: string }, input: z.infer<S>) => Promise<ActionResult<T>>;
}) {
  return defineAction({
    name: options.name,
    schema: options.schema,
    roles: ["manager"],
    async run(input, actor) {
      if (!actor.academyId) return fail("FORBIDDEN");
      const result = await options.run({ academyId: actor.academyId, actorId: actor.id }, input);
      for (const path of options.revalidate) revalidatePath(path, "layout");
      return result;
    },
  });
}
