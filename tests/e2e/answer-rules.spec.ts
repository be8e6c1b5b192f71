import { expect, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { baseText, editUrl, expectAccessible } from "./helpers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { signedInBrowsers } from "./browsers";

const signedIn = signedInBrowsers();
type Options = { options: { id: string; correct?: boolean }[] };

/**
 * A self-paced activity with "after each answer" feedback whose choice scene ("clear" is correct) a
 * student reaches first: the two scenes before it are answered, so the player opens on it.
 */
async function keyedSoloActivity() {
  const { teacher, school, students } = await makeSchool(1);
  const db = e2eDb();
  const activity = await createActivityFromTemplate(db, {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  await db.activity.update({ where: { id: activity.id }, data: { feedback: "after_answer" } });
  const [intro, weight, solution] = await scenesOf(activity.id);
  const options = (solution!.content as Options).options.map((o) => (o.id === "clear" ? { ...o, correct: true } : o));
  await db.activityScene.update({
    where: { id: solution!.id },
    data: { content: { ...(solution!.content as object), options } },
  });
  const student = students[0]!;
  await createResponse(db, {
    activityId: activity.id,
    sceneId: intro!.id,
    userId: student.id,
    scenePosition: 0,
    answer: { seen: true },
  });
  await createResponse(db, {
    activityId: activity.id,
    sceneId: weight!.id,
    userId: student.id,
    scenePosition: 1,
    answer: { first: "same", second: "sure", reason: "r" },
  });
  return { db, activity, solution: solution!, student, teacher };
}

test("after 答え合わせ the answer is final: a change from a page opened before is refused with the reason, and the scene turns read-only", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { db, activity, solution, student } = await keyedSoloActivity();

  const player = await signedIn(browser, student.email!);
  await player.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await player.locator('[data-option="cloudy"] input').check();
  await expect(player.getByTestId("save-status")).toHaveAttribute("data-status", "saved");

  // 答え合わせ in a second tab: ×, and the correct option
  const check = await player.context().newPage();
  await check.goto(`/dashboard/student/activities/response/${activity.id}`);
  await expect(check.locator(`[data-scene-id="${solution.id}"] [data-testid="verdict"]`)).toHaveAttribute(
    "data-verdict",
    "incorrect",
  );
  await expect(
    check.locator(`[data-scene-id="${solution.id}"] [data-option="clear"] [data-testid="correct-mark"]`),
  ).toBeVisible();

  // back on the player opened before: the change to the right option is refused by the server, with its reason
  const refused = player.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/v1/answers",
  );
  // a click, not check(): the refusal puts the stored choice back, possibly before check() looks at the radio
  await player.locator('[data-option="clear"] input').click();
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
  // (the player opens on the first scene not answered yet, the one after it)
  await player.reload();
  await player.getByTestId("previous").click();
  await expect(player.getByTestId("answer-final")).toBeVisible();
  await expect(player.locator('[data-option="cloudy"] input')).toBeChecked();
  await expect(player.locator('[data-option="clear"] input')).toBeDisabled();
  const row = await db.response.findUniqueOrThrow({
    where: { userId_sceneId: { userId: student.id, sceneId: solution.id } },
    select: { answer: true },
  });
  expect(row.answer).toEqual({ choice: "cloudy" });
  await check.reload();
  await expect(check.locator(`[data-scene-id="${solution.id}"] [data-testid="verdict"]`)).toHaveAttribute(
    "data-verdict",
    "incorrect",
  );
});

test("a teacher allows retries in the editor: after 答え合わせ the student answers again, every attempt is kept and the first stays the one marked", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { db, activity, solution, student, teacher } = await keyedSoloActivity();

  const editor = await signedIn(browser, teacher.email!);
  await editor.goto(editUrl(activity.id));
  await editor.getByTestId("retries-select").selectOption("allowed");
  await expect
    .poll(
      async () =>
        (await db.activity.findUniqueOrThrow({ where: { id: activity.id }, select: { allowRetries: true } }))
          .allowRetries,
    )
    .toBe(true);
  await expectAccessible(editor);

  const player = await signedIn(browser, student.email!);
  await player.goto(`/dashboard/student/activities/solo/${activity.id}`);
  // 答え合わせ at once after choosing: the choice is stored before the key is shown (and judged)
  await player.locator('[data-option="cloudy"] input').check();
  await player.getByTestId("check-answers").click();
  await expect(player.locator(`[data-scene-id="${solution.id}"] [data-testid="verdict"]`)).toHaveAttribute(
    "data-verdict",
    "incorrect",
  );

  // back on the scene: not final, the new answer is saved as a further attempt
  await player.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await player.getByTestId("previous").click();
  await expect(player.getByTestId("answer-final")).toHaveCount(0);
  await player.locator('[data-option="clear"] input').check();
  await expect(player.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await player.reload();
  await player.getByTestId("previous").click();
  await expect(player.locator('[data-option="clear"] input')).toBeChecked();

  // the first answer stays the one marked; the attempt is kept beside it
  await player.goto(`/dashboard/student/activities/response/${activity.id}`);
  await expect(player.locator(`[data-scene-id="${solution.id}"] [data-testid="verdict"]`)).toHaveAttribute(
    "data-verdict",
    "incorrect",
  );
  const row = await db.response.findUniqueOrThrow({
    where: { userId_sceneId: { userId: student.id, sceneId: solution.id } },
    select: { answer: true, attempts: { select: { answer: true } } },
  });
  expect(row).toEqual({ answer: { choice: "cloudy" }, attempts: [{ answer: { choice: "clear" } }] });
});
