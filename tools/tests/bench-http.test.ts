import { describe, expect, it } from "vitest";
import { actionResult, assertPageServesAction, workerServesPath } from "../bench/http";

const reply = (body: string) => ({ body });

describe("the bench's server-action client", () => {
  it("matches a page path to the build's page worker, not to route handlers", () => {
    const guide = "app/dashboard/teacher/activities/guide/[activityId]/page";
    expect(workerServesPath(guide, "/dashboard/teacher/activities/guide/0b6e8f4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b")).toBe(
      true,
    );
    expect(workerServesPath(guide, "/dashboard/teacher/activities/guide/a/b")).toBe(false);
    expect(workerServesPath("app/api/v1/live/[activityId]/scene/route", "/api/v1/live/x/scene")).toBe(false);
    expect(workerServesPath("app/(auth)/auth/auth-with-code/page", "/auth/auth-with-code?code=1")).toBe(true);
    expect(workerServesPath("app/docs/[...slug]/page", "/docs")).toBe(false);
    expect(workerServesPath("app/docs/[[...slug]]/page", "/docs")).toBe(true);
    expect(workerServesPath("app/docs/[...slug]/page", "/docs/a/b")).toBe(true);
  });

  it("refuses an action the page does not serve, naming where it is served", () => {
    const manifest = {
      node: {
        abc: {
          filename: "features/play/server/actions.ts",
          exportedName: "goToSceneAction",
          workers: { "app/api/v1/live/[activityId]/scene/route": {} },
        },
        def: {
          filename: "features/play/server/actions.ts",
          exportedName: "startSessionAction",
          workers: { "app/dashboard/teacher/activities/guide/[activityId]/page": {} },
        },
      },
    };
    expect(() => assertPageServesAction("abc", "/dashboard/teacher/activities/guide/x", manifest)).toThrow(
      /goToSceneAction is not served by .*scene\/route/,
    );
    expect(() => assertPageServesAction("def", "/dashboard/teacher/activities/guide/x", manifest)).not.toThrow();
    expect(() => assertPageServesAction("zzz", "/dashboard/teacher/activities/guide/x", manifest)).toThrow(
      /not in the build/,
    );
  });

  it("reads the ActionResult from the flight reply; Next's forwarded `{}` carries none", () => {
    expect(actionResult(reply('0:{"a":"$@1","f":"","b":"build"}\n1:{"ok":true,"data":null}\n'))).toEqual({ ok: true });
    expect(actionResult(reply('0:{"a":"$@1","f":"","b":"build"}\n1:{"ok":false,"code":"CONFLICT"}\n'))).toEqual({
      ok: false,
      code: "CONFLICT",
    });
    expect(actionResult(reply("{}"))).toBeNull();
  });
});
