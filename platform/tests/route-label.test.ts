import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OTHER_ROUTE, routeLabel, routeTable } from "@/platform/ops/route-label";

// the shape `next build` writes to .next/routes-manifest.json (regexes as Next writes them)
const manifest = {
  staticRoutes: [
    { page: "/" },
    { page: "/_not-found" },
    { page: "/signin" },
    { page: "/api/v1/answers" },
    { page: "/dashboard/teacher/home" },
    { page: "/metrics" },
  ],
  dynamicRoutes: [
    { page: "/api/auth/[...nextauth]", regex: "^/api/auth/(.+?)(?:/)?$" },
    { page: "/api/v1/live/[activityId]/state", regex: "^/api/v1/live/([^/]+?)/state(?:/)?$" },
    {
      page: "/dashboard/teacher/activities/response/[activityId]/[studentId]",
      regex: "^/dashboard/teacher/activities/response/([^/]+?)/([^/]+?)(?:/)?$",
    },
    { page: "/dashboard/teacher/portfolio/[studentId]", regex: "^/dashboard/teacher/portfolio/([^/]+?)(?:/)?$" },
  ],
};
const table = routeTable(manifest, ["/icon-192.png"]);
const id = "3f0c2a3e-9a51-4c51-9d1e-2a4f6f0b9c11";

describe("the route label of the HTTP metrics", () => {
  it("is the route pattern: ids become their parameter's name, the query is left out", () => {
    expect(routeLabel(table, `/api/v1/live/${id}/state?school=${id}`)).toBe("/api/v1/live/[activityId]/state");
    expect(routeLabel(table, `/dashboard/teacher/activities/response/${id}/${id}`)).toBe(
      "/dashboard/teacher/activities/response/[activityId]/[studentId]",
    );
    expect(routeLabel(table, "/api/auth/callback/google?code=x")).toBe("/api/auth/[...nextauth]");
    expect(routeLabel(table, "/signin?from=/dashboard")).toBe("/signin");
    expect(routeLabel(table, "/signin/")).toBe("/signin");
    expect(routeLabel(table, "/")).toBe("/");
    expect(routeLabel(table, "/api/v1/answers")).toBe("/api/v1/answers");
    expect(routeLabel(table, "/metrics")).toBe("/metrics");
    expect(routeLabel(table, "/icon-192.png")).toBe("/icon-192.png");
  });

  it("groups Next's assets and names every other path 'other'", () => {
    expect(routeLabel(table, "/_next/static/chunks/abc123.js")).toBe("/_next/static");
    expect(routeLabel(table, "/_next/data/x.json")).toBe(OTHER_ROUTE);
    expect(routeLabel(table, "/_not-found")).toBe(OTHER_ROUTE);
    expect(routeLabel(table, "/wp-login.php")).toBe(OTHER_ROUTE);
    expect(routeLabel(table, "/dashboard/teacher/portfolio/a/b")).toBe(OTHER_ROUTE);
    expect(routeLabel(table, "/%ED%A0%80")).toBe(OTHER_ROUTE);
    expect(routeLabel(table, "*")).toBe(OTHER_ROUTE);
    expect(routeLabel(table, undefined)).toBe(OTHER_ROUTE);
    expect(routeLabel(table, `/${"a/".repeat(5_000)}`)).toBe(OTHER_ROUTE);
  });

  it("has as many values as the build has routes, whatever 100,000 random paths ask", () => {
    const labels = new Set<string>();
    const shapes = [
      (r: string) => `/${r}`,
      (r: string) => `/dashboard/teacher/portfolio/${r}`,
      (r: string) => `/api/v1/live/${r}/state?x=${r}`,
      (r: string) => `/_next/static/${r}.js`,
      (r: string) => `/api/auth/${r}/${r}`,
      (r: string) => `/signin/${r}`,
    ];
    for (let i = 0; i < 100_000; i++)
      labels.add(routeLabel(table, shapes[i % shapes.length]!(randomBytes(6).toString("hex"))));
    expect([...labels].sort()).toEqual(
      [
        "/_next/static",
        "/api/auth/[...nextauth]",
        "/api/v1/live/[activityId]/state",
        "/dashboard/teacher/portfolio/[studentId]",
        OTHER_ROUTE,
      ].sort(),
    );
  });
});
