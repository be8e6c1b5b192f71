import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { BASE_URL } from "../e2e/config";
import { e2eDb, makeSchool } from "../e2e/db";
import { cookieOf } from "../e2e/cookies";

/**
 * Answers are never lost (docs/security.md, threat: one student's input
 * costing classmates their answers). A student sends an answer PostgreSQL
 * cannot store (NUL, a lone surrogate) at the moment the whole class saves:
 * the class's answers are written in one statement, which the bad row used
 * to fail for everyone (503, retried forever).
 */

const CLASS = 12;

test("a poisoned answer inside a concurrent batch: the good ones are all stored, the bad gets 4xx, no 5xx", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { school, students } = await makeSchool(CLASS);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scenes = await e2eDb().activityScene.findMany({
    where: { activityId: activity.id },
    select: { id: true, type: true },
  });
  const freeText = scenes.find((s) => s.type === "free_text")!.id;
  const twoStep = scenes.find((s) => s.type === "two_step")!.id;

  // each student signed in for real; their session cookies, to send at once from here
  const cookies: string[] = [];
  for (const s of students) cookies.push(await cookieOf(browser, s.email!));

  const poisons = [
    { sceneId: freeText, answer: { text: "ふつうの答え\u0000" } },
    { sceneId: freeText, answer: { text: "\uD83Dこわれた" } },
    { sceneId: twoStep, answer: { first: "same", second: "sure", reason: "理由\uDFFF" } },
  ];
  for (const [round, poison] of poisons.entries()) {
    const revision = round + 1;
    const bad = round % CLASS;
    const sends = students.map((s, i) => {
      const body =
        i === bad
          ? { activityId: activity.id, ...poison }
          : { activityId: activity.id, sceneId: freeText, answer: { text: `${s.name}の答え ${round}` } };
      return fetch(`${BASE_URL}/api/v1/answers`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: cookies[i]!, origin: BASE_URL },
        body: JSON.stringify({
          ...body,
          clientRevision: revision,
          idempotencyKey: `poison-${round}-${i}-${s.id.slice(0, 8)}`,
          mode: "self",
        }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { ok: boolean; reason?: string } }));
    });
    const replies = await Promise.all(sends);
    expect(replies.filter((r) => r.status >= 500)).toEqual([]);
    expect(replies[bad]).toMatchObject({
      status: 400,
      body: { ok: false, code: "VALIDATION", reason: "invalidCharacters" },
    });
    for (const [i, reply] of replies.entries())
      if (i !== bad) expect(reply).toMatchObject({ status: 200, body: { ok: true, revision } });
    // stored: every good answer once, as sent; nothing of the bad one
    const rows = await e2eDb().response.findMany({
      where: { activityId: activity.id, sceneId: freeText },
      select: { userId: true, answer: true, clientRevision: true },
    });
    const good = students.filter((_, i) => i !== bad);
    for (const s of good)
      expect(rows.find((r) => r.userId === s.id && r.clientRevision === revision)?.answer).toEqual({
        text: `${s.name}の答え ${round}`,
      });
    expect(
      await e2eDb().response.count({
        where: { activityId: activity.id, userId: students[bad]!.id, clientRevision: revision },
      }),
    ).toBe(0);
  }
  expect(await e2eDb().response.count({ where: { activityId: activity.id, sceneId: twoStep } })).toBe(0);
});
