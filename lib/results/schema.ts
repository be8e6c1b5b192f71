import { z } from "zod";
import { filterText } from "@/lib/query-text";

/** The filters of the stats page and its CSV (from the URL): counterbalance group, class, mode. */
export const statsFilter = z.object({
  group: z.string().regex(/^[A-Z]{1,3}$/).optional().catch(undefined),
  class: filterText(10).optional().catch(undefined),
  mode: z.enum(["guide", "self"]).optional().catch(undefined),
});
export type StatsFilter = z.infer<typeof statsFilter>;

export function filterFromParams(params: URLSearchParams | Record<string, string | string[] | undefined>): StatsFilter {
  const get = (k: string) => {
    const v = params instanceof URLSearchParams ? params.get(k) : params[k];
    const one = Array.isArray(v) ? v[0] : v;
    return one === "" || one === null ? undefined : one;
  };
  return statsFilter.parse({ group: get("group"), class: get("class"), mode: get("mode") });
}

export function filterQuery(filter: StatsFilter): string {
  const p = new URLSearchParams();
  if (filter.group) p.set("group", filter.group);
  if (filter.class) p.set("class", filter.class);
  if (filter.mode) p.set("mode", filter.mode);
  return p.toString();
}
