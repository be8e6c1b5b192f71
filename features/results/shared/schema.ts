import { z } from "zod";
import { filterText } from "@/platform/db/query-text";

/** The filters of the stats page and its CSV (from the URL): counterbalance group, class, mode. */
export const statsFilter = z.object({
  group: z
    .string()
    .regex(/^[A-Z]{1,3}$/)
    .optional()
    .catch(undefined),
  /** The class key ("1:2" for 1年2組, features/people/shared/class-key.ts). */
  class: filterText(20).optional().catch(undefined),
  mode: z.enum(["guide", "self"]).optional().catch(undefined),
});
export type StatsFilter = z.infer<typeof statsFilter>;

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

/** One value of the query (the first when repeated); an empty one counts as absent. */
function paramOf(params: Params, k: string): string | undefined {
  const v = params instanceof URLSearchParams ? params.get(k) : params[k];
  const one = Array.isArray(v) ? v[0] : v;
  return one === "" || one === null ? undefined : one;
}

export function filterFromParams(params: Params): StatsFilter {
  const get = (k: string) => paramOf(params, k);
  return statsFilter.parse({ group: get("group"), class: get("class"), mode: get("mode") });
}

/**
 * The one long list of the stats page shown whole (`?show=`): the respondents,
 * or one scene's free texts, drawings or its "not answered yet"; every other list shows
 * its first part. Anything else shows every list's first part.
 */
export const statsShow = z
  .string()
  .regex(/^(respondents|(texts|missing|drawings)-[0-9a-f-]{36})$/)
  .optional()
  .catch(undefined);

export function showFromParams(params: Params): string | undefined {
  return statsShow.parse(paramOf(params, "show"));
}

export function filterQuery(filter: StatsFilter): string {
  const p = new URLSearchParams();
  if (filter.group) p.set("group", filter.group);
  if (filter.class) p.set("class", filter.class);
  if (filter.mode) p.set("mode", filter.mode);
  return p.toString();
}
