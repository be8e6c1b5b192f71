/**
 * The `route` label of the HTTP metrics (platform/ops/http-metrics.ts): the route pattern a
 * path belongs to (`/dashboard/teacher/activities/edit/[activityId]`), never the path
 * itself, so that ids do not make a series each and an attacker sending random paths
 * adds none: a path no route of the build serves is "other". The patterns are the
 * build's own (.next/routes-manifest.json, written by `next build`), so a new page is
 * labelled without a list to keep in step.
 */

/** The part of .next/routes-manifest.json read here. */
export interface RoutesManifest {
  staticRoutes: { page: string }[];
  dynamicRoutes: { page: string; regex: string }[];
}

export interface RouteTable {
  exact: Map<string, string>;
  dynamic: { page: string; regex: RegExp }[];
}

export const OTHER_ROUTE = "other";
/** Longer paths are no route of the app (and never reach a regex). */
const MAX_PATH = 1024;

/**
 * The table of a build's routes, plus `extra` exact paths served outside Next's routes
 * (the files in public/, the answer endpoint of server/main.ts).
 */
export function routeTable(manifest: RoutesManifest, extra: string[] = []): RouteTable {
  const exact = new Map<string, string>();
  for (const { page } of manifest.staticRoutes) exact.set(page, page);
  for (const page of extra) exact.set(page, page);
  // Next's own internal pages are not addresses anyone visits
  for (const page of exact.keys()) if (page.startsWith("/_")) exact.delete(page);
  return { exact, dynamic: manifest.dynamicRoutes.map((r) => ({ page: r.page, regex: new RegExp(r.regex) })) };
}

/** The route pattern of a request's URL (its path; the query is ignored), or "other". */
export function routeLabel(table: RouteTable, url: string | undefined): string {
  if (!url) return OTHER_ROUTE;
  const end = url.search(/[?#]/);
  let path = end < 0 ? url : url.slice(0, end);
  if (path.length > MAX_PATH || !path.startsWith("/")) return OTHER_ROUTE;
  if (path.startsWith("/_next/"))
    return path.startsWith("/_next/static/")
      ? "/_next/static"
      : path.startsWith("/_next/image")
        ? "/_next/image"
        : OTHER_ROUTE;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const exact = table.exact.get(path);
  if (exact) return exact;
  for (const { page, regex } of table.dynamic) if (regex.test(path)) return page;
  return OTHER_ROUTE;
}
