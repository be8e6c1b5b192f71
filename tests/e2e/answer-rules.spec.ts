import { expect, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { baseText, expectAccessible } from "./helpers";
import { e2eDb, makeSchool } from "./db";
import { signedInBrowsers } from "./browsers";

const signedIn = signedInBrowsers();
type Options = { options: { id: string; correct?: boolean }[] };

test("after 答え合わせ the answer is final: a change from a page opened before is refused with the reason, and the scene turns read-only", async ({ browser }) => {
  test.setTimeout(90_000);
  const { school, students } = await makeSchool(1);
  const db = e2eDb();
  const activity = await createActivityFromTemplate(db, { templateId: "science-dissolve", schoolId: school.id, mode: "self" });
  await db.activity.update({ where: { id: activity.id }, data: { feedback: "after_answer" } });
  const [intro, weight, solution] = await db.activityScene.findMany({ where: { activityId: activity.id }, orderBy: { position: "asc" } });
  const options = (solution!.content as Options).options.map((o) => (o.id === "clear" ? { ...o, correct: true } : o));
  await db.activityScene.update({ where: { id: solution!.id }, data: { content: { ...(solution!.content as object), options } } });
  const student = students[0]!;
  // the first two scenes are answered: the player opens on the choice
  await createResponse(db, { activityId: activity.id, sceneId: intro!.id, userId: student.id, scenePosition: 0, answer: { seen: true } });
  await createResponse(db, { activityId: activity.id, sceneId: weight!.id, userId: student.id, scenePosition: 1, answer: { first: "same", second: "sure", reason: "r" } });

  const player = await signedIn(browser, student.email!);
  await player.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await player.locator('[data-option="cloudy"] input').check();
  await expect(player.getByTestId("save-status")).toHaveAttribute("data-status", "saved");

  // 答え合わせ in a second tab: ×, and the correct option
  const check = await player.context().newPage();
  await check.goto(`/dashboard/student/activities/response/${activity.id}`);
  await expect(check.locator(`[data-scene-id="${solution!.id}"] [data-testid="verdict"]`)).toHaveAttribute("data-verdict", "incorrect");
  await expect(check.locator(`[data-scene-id="${solution!.id}"] [data-option="clear"] [data-testid="correct-mark"]`)).toBeVisible();

  // back on the player opened before: the change to the right option is refused by the server, with its reason
  const refused = player.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/v1/answers");
  await player.locator('[data-option="clear"] input').check();
  const reply = await refused;
  expect(reply.status()).toBe(409);
  expect(await reply.json()).toMatchObject({ ok: false, code: "CONFLICT", reason: "answerFinal" });
  const status = player.getByTestId("save-status");
  await expect(status).toHaveAttribute("data-status", "failed");
  expect(await baseText(status)).toBe("回答を保存できませんでした：答え合わせのあとは、答えを変えられません。");
  // the scene is read-only, showing the answer that was marked
  await expect(player.getByTestId("answer-final")).toBeVisible();
  await expect(player.locator('[data-option="cloudy"] input')).toBeChecked();
  await expect(player.locator('[data-option="clear"] input')).not.toBeChecked();
  for (const input of await player.locator("[data-option] input").all()) await expect(input).toBeDisabled();
  await expectAccessible(player);

  // opened afresh: read-only from the start; what is stored, marked and shown is the answer seen with its key
  await player.reload();
  await expect(player.getByTestId("answer-final")).toBeVisible();
  await expect(player.locator('[data-option="cloudy"] input')).toBeChecked();
  await expect(player.locator('[data-option="clear"] input')).toBeDisabled();
  const row = await db.response.findUniqueOrThrow({ where: { userId_sceneId: { userId: student.id, sceneId: solution!.id } }, select: { answer: true } });
  expect(row.answer).toEqual({ choice: "cloudy" });
  await check.reload();
  await expect(check.locator(`[data-scene-id="${solution!.id}"] [data-testid="verdict"]`)).toHaveAttribute("data-verdict", "incorrect");
});
