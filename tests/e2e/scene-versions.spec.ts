/**
 * Editing never loses an answer (docs/adr/0059-scene-versions.md) and the scene form's autosave
 * (features/activities/README.md "Activity editor"): an answered scene
 * is edited into a new version through a confirmation and the stats show both versions; an answered
 * scene is deleted (retired) after a confirmation naming the count; the form saves by itself with a
 * visible state; two tabs get the conflict prompt. Server rules: features/results/tests/scene-versions.
 */
import { expect, type Page, type Route, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { editUrl, expectNotification } from "./helpers";
import { e2eDb, makeSchool, scenesOf } from "./db";

const signedIn = signedInBrowsers();
const promptOf = async (id: string) =>
  ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id } })).content as { prompt: string }).prompt;
const itemOf = (page: Page, id: string) => page.locator(`[data-scene-id="${id}"][data-testid="scene-item"]`);
async function openForm(page: Page, id: string) {
  const item = itemOf(page, id);
  await item.getByTestId("edit-scene").click();
  const form = item.getByTestId("scene-form");
  await expect(form).toBeVisible();
  return form;
}

test.describe("scene versions and autosave", () => {
  test("a teacher edits an answered scene through the confirmation and sees both versions in stats; deleting an answered scene asks with the count and keeps the answer", async ({
    browser,
  }) => {
    const { teacher, school, students } = await makeSchool(2);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const scenes = await scenesOf(activity.id);
    const choice = scenes[2]!;
    const reason = scenes[4]!;
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: choice.id,
      userId: students[0]!.id,
      answer: { choice: "clear" },
      scenePosition: 2,
    });
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: reason.id,
      userId: students[1]!.id,
      answer: { text: "とけた" },
      scenePosition: 4,
    });
    const page = await signedIn(browser, teacher.email!);
    await page.goto(editUrl(activity.id));

    const form = await openForm(page, choice.id);
    await expect(form.getByTestId("version-note")).toContainText("1人がこのシーンの今の版に回答しています");
    await form.locator('[data-field="content.prompt"]').fill("直した問い：水溶液はどれ？");
    await form.locator('[data-field="content.prompt"]').blur();
    // no autosave for an answered scene: nothing is stored until the teacher confirms
    await expect(form.getByTestId("autosave-state")).toHaveAttribute("data-state", "idle");
    expect(await promptOf(choice.id)).toBe((choice.content as { prompt: string }).prompt);
    await form.getByTestId("save-scene").click();
    await expect(page.getByTestId("confirm-body")).toContainText("前の版（版1）のまま残ります");
    await page.getByTestId("confirm-cancel").click();
    expect(await promptOf(choice.id)).toBe((choice.content as { prompt: string }).prompt);
    await form.getByTestId("save-scene").click();
    await page.getByTestId("confirm-ok").click();
    await expectNotification(page, "シーンを保存しました");
    await expect.poll(() => promptOf(choice.id)).toBe("直した問い：水溶液はどれ？");
    const stored = await e2eDb().activityScene.findUniqueOrThrow({
      where: { id: choice.id },
      select: { version: true, versions: { select: { version: true } } },
    });
    expect(stored).toEqual({ version: 2, versions: [{ version: 1 }] });
    await expect(itemOf(page, choice.id).getByTestId("version-badge")).toContainText("版2");

    // deleting the answered free-text scene: the confirmation names the answers, which stay
    await itemOf(page, reason.id).getByTestId("delete-scene").click();
    await expect(page.getByTestId("confirm-body")).toContainText("1人の回答があります");
    await page.getByTestId("confirm-ok").click();
    await expect(itemOf(page, reason.id)).toHaveCount(0);
    expect(await e2eDb().response.count({ where: { sceneId: reason.id } })).toBe(1);

    // the stats: the current version (nobody yet) and the earlier one with its answer and its question
    await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
    const section = page.locator(`section[data-scene-id="${choice.id}"]`);
    await expect(section.getByTestId("current-version")).toContainText("版2");
    await expect(section).toHaveAttribute("data-answered", "0");
    const earlier = section.getByTestId("earlier-version");
    await expect(earlier).toHaveAttribute("data-version", "1");
    await expect(earlier).toHaveAttribute("data-answered", "1");
    await earlier.locator("summary").click();
    await expect(earlier).toContainText("あてはまるものはどれですか");
    await expect(page.locator(`section[data-scene-id="${reason.id}"]`)).toHaveCount(0);

    // the student's answers (staff view, portfolio) show the question they answered and its version
    await page.goto(`/dashboard/teacher/activities/response/${activity.id}/${students[0]!.id}`);
    await expect(page.locator("main")).toContainText("版1に回答");
    await expect(page.locator("main")).toContainText("あてはまるものはどれですか");
    await page.goto(`/dashboard/teacher/portfolio/${students[0]!.id}`);
    await expect(page.locator("main")).toContainText("版1に回答");
    // the student's player puts nothing under the new question and asks again; the earlier answer's revision still counts
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: scenes[0]!.id,
      userId: students[0]!.id,
      answer: { seen: true },
      scenePosition: 0,
    });
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: scenes[1]!.id,
      userId: students[0]!.id,
      answer: { first: "same", reason: "r" },
      scenePosition: 1,
    });
    const kid = await signedIn(browser, students[0]!.email!);
    await kid.goto(`/dashboard/student/activities/solo/${activity.id}`);
    await expect(kid.getByTestId("revised-note")).toBeVisible();
    await expect(kid.locator("main")).toContainText("直した問い：水溶液はどれ？");
    await expect(kid.locator("main input[type=radio]:checked")).toHaveCount(0);
    await kid.locator("main input[type=radio]").first().check();
    await expect(kid.getByTestId("revised-note")).toHaveCount(0);
    await expect
      .poll(() =>
        e2eDb().response.findUnique({
          where: { userId_sceneId: { userId: students[0]!.id, sceneId: choice.id } },
          select: { sceneVersion: true },
        }),
      )
      .toEqual({ sceneVersion: 2 });
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: choice.id,
      userId: students[1]!.id,
      answer: { choice: "clear" },
      scenePosition: 2,
    });
    await e2eDb().response.updateMany({
      where: { sceneId: choice.id, userId: students[1]!.id },
      data: { sceneVersion: 1 },
    });
    // and another student's own result page shows the question they answered, saying it was the earlier version
    await e2eDb().activity.update({ where: { id: activity.id }, data: { mode: "complete" } });
    const other = await signedIn(browser, students[1]!.email!);
    await other.goto(`/dashboard/student/activities/response/${activity.id}`);
    await expect(other.locator("main")).toContainText(/あとで直.*前.*版.*1/);
    await expect(other.locator("main")).toContainText("あてはまるものはどれですか");
    await expect(other.locator("main")).not.toContainText("直した問い");
  });

  test("the scene form saves by itself after a pause, shows its state, never saves an invalid form, and the save survives a reload", async ({
    browser,
  }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
    });
    const scene = (await scenesOf(activity.id))[1]!;
    const page = await signedIn(browser, teacher.email!);
    await page.goto(editUrl(activity.id));
    let form = await openForm(page, scene.id);
    const prompt = form.locator('[data-field="content.prompt"]');
    await prompt.fill("");
    await prompt.pressSequentially("自動で保存される問い");
    await expect(form.getByTestId("autosave-state")).toContainText("保存しました", { timeout: 15_000 });
    await expect.poll(() => promptOf(scene.id)).toBe("自動で保存される問い");
    // an emptied question is invalid: not saved, however long the teacher waits or where the focus goes
    await prompt.fill("");
    await page.locator("#scene-list-heading").click();
    await expect(form.getByTestId("autosave-state")).toHaveAttribute("data-state", "idle");
    expect(await promptOf(scene.id)).toBe("自動で保存される問い");
    // undo brings the saved text back (nothing to save: it is what is stored)
    await form.getByTestId("undo").click();
    await expect(prompt).toHaveValue("自動で保存される問い");
    await page.reload();
    form = await openForm(page, scene.id);
    await expect(form.locator('[data-field="content.prompt"]')).toHaveValue("自動で保存される問い");

    // the network drops the save: 保存できませんでした with a retry, which saves once it is back
    const offline = (route: Route) =>
      route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue();
    await page.route(`**${editUrl(activity.id)}`, offline);
    await form.locator('[data-field="content.prompt"]').fill("回線が切れたときの問い");
    await expect(form.getByTestId("autosave-state")).toContainText("保存できませんでした", { timeout: 15_000 });
    expect(await promptOf(scene.id)).toBe("自動で保存される問い");
    await page.unroute(`**${editUrl(activity.id)}`, offline);
    await form.getByTestId("autosave-retry").click();
    await expect(form.getByTestId("autosave-state")).toContainText("保存しました", { timeout: 15_000 });
    await expect.poll(() => promptOf(scene.id)).toBe("回線が切れたときの問い");
  });

  test("two tabs editing the same scene: the later autosave is refused with the reload / keep mine prompt, and keep mine saves over it", async ({
    browser,
  }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
    });
    const scene = (await scenesOf(activity.id))[1]!;
    const [page1, page2] = [await signedIn(browser, teacher.email!), await signedIn(browser, teacher.email!)];
    for (const p of [page1, page2]) await p.goto(editUrl(activity.id));
    const form1 = await openForm(page1, scene.id);
    const form2 = await openForm(page2, scene.id);
    await form1.locator('[data-field="content.prompt"]').fill("一つ目のタブの問い");
    await expect(form1.getByTestId("autosave-state")).toContainText("保存しました", { timeout: 15_000 });
    await form2.locator('[data-field="content.prompt"]').fill("二つ目のタブの問い");
    const problem = form2.getByTestId("scene-problem");
    await expect(problem).toContainText("ほかの人がこのアクティビティを変更しました", { timeout: 15_000 });
    await expect(problem.getByTestId("reload")).toBeVisible();
    // last write never silently wins: the first tab's text is what is stored
    expect(await promptOf(scene.id)).toBe("一つ目のタブの問い");
    await expect(async () => {
      if (await problem.getByTestId("keep-mine").isVisible()) await problem.getByTestId("keep-mine").click();
      expect(await promptOf(scene.id)).toBe("二つ目のタブの問い");
    }).toPass({ timeout: 20_000 });
  });
});
