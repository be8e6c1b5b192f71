import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { actionId, actionResult, callAction, expectActionOk, request } from "../../tools/bench/http";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, sessionCookieFor } from "./db";

/**
 * The bench drives lessons with server actions posted as React's client posts
 * them (tools/bench/http.ts). Posted to a page that does not serve the
 * action, Next.js forwards it to the first route that has it (a route
 * handler, which runs no actions) and answers 200 `{}` with nothing done: the
 * bench once "moved" a class that way and measured a stream that never changed.
 */
test("the bench's action client: an action the page does not serve fails instead of a 200 that did nothing", async () => {
  const { teacher, school } = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const scenes = (
    await e2eDb().activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).map((s) => s.id);
  const cookie = await sessionCookieFor(teacher.id, "teacher");
  const guide = `/dashboard/teacher/activities/guide/${activity.id}`;
  const current = async () =>
    (
      await e2eDb().guideSession.findFirst({
        where: { activityId: activity.id, endedAt: null },
        select: { currentSceneId: true },
      })
    )?.currentSceneId;

  // an action the guide page serves: done, and the reply says so
  expectActionOk(
    await callAction(
      BASE_URL,
      guide,
      actionId("features/play/server/actions.ts", "startSessionAction"),
      [{ activityId: activity.id }],
      cookie,
    ),
    "start",
  );
  expect(await current()).toBe(scenes[0]);

  // "go to scene": no page imports it (the guide screen posts to /api/v1/live/{id}/scene)
  const goTo = actionId("features/play/server/actions.ts", "goToSceneAction");
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { workers: Record<string, unknown> }>;
  };
  expect(
    Object.keys(manifest.node[goTo]!.workers).filter((w) => w.endsWith("/page")),
    "a page serves goToSceneAction again: test that it moves a student's stream",
  ).toEqual([]);

  // posted anyway, as the old bench did: Next.js answers 200, nothing moves
  const args = JSON.stringify([{ activityId: activity.id, sceneId: scenes[1] }]);
  const raw = await request(`${BASE_URL}${guide}`, {
    method: "POST",
    headers: {
      "Next-Action": goTo,
      "Content-Type": "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: BASE_URL,
      Cookie: cookie,
    },
    body: args,
  });
  expect(raw.status).toBe(200);
  expect(actionResult(raw)).toBeNull();
  expect(() => expectActionOk(raw, "go to scene")).toThrow(/go to scene: HTTP 200/);
  expect(await current()).toBe(scenes[0]);

  // the bench's client refuses it
  await expect(
    callAction(BASE_URL, guide, goTo, [{ activityId: activity.id, sceneId: scenes[1] }], cookie),
  ).rejects.toThrow(/goToSceneAction is not served by/);
  expect(await current()).toBe(scenes[0]);
});
