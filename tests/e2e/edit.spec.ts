import { expect, type Locator, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { editUrl, expectNotification, signInAs } from "./helpers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";

const ids = (list: Locator) => list.locator("li").evaluateAll((els) => els.map((e) => e.getAttribute("data-scene-id")));

test.describe("scene order editor", () => {
  test("reorders by keyboard and by mouse, sets a group B order, saves; a concurrent editor is told to reload", async ({
    page,
    browser,
  }) => {
    const { teacher, school } = await makeSchool(2);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
    });
    const original = (await scenesOf(activity.id)).map((s) => s.id);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    const url = editUrl(activity.id);
    await page.goto(url);

    // a second editor opens the same activity before the first saves
    const other = await browser.newContext();
    const page2 = await other.newPage();
    await signInAs(page2, teacher.email!, TEST_PASSWORD);
    await page2.goto(url);

    const list = page.getByTestId("order-default");
    expect(await ids(list)).toEqual(original);
    // keyboard: move the first scene down twice
    await list.locator("li").first().getByTestId("move-down").focus();
    await page.keyboard.press("Enter");
    await list.locator("li").nth(1).getByTestId("move-down").focus();
    await page.keyboard.press("Enter");
    expect(await ids(list)).toEqual([original[1], original[2], original[0], original[3], original[4]]);
    // mouse: drag the last scene onto the first
    await list.locator("li").last().dragTo(list.locator("li").first());
    const afterDrag = [original[4], original[1], original[2], original[0], original[3]];
    expect(await ids(list)).toEqual(afterDrag);

    // group B gets an order of its own, starting from the default
    await page.getByTestId("same-B").uncheck();
    const groupList = page.getByTestId("order-B");
    expect(await ids(groupList)).toEqual(afterDrag);
    await groupList.locator("li").first().getByTestId("move-down").click();
    const groupOrder = [afterDrag[1], afterDrag[0], afterDrag[2], afterDrag[3], afterDrag[4]];
    await page.locator('input[name="title"]').fill("方程式（１組）");
    await page.getByTestId("save-order").click();
    await expectNotification(page, "保存しました");

    const stored = await scenesOf(activity.id);
    expect(stored.map((s) => s.id)).toEqual(afterDrag);
    const b = await e2eDb().activitySceneOrder.findUniqueOrThrow({
      where: { activityId_group: { activityId: activity.id, group: "B" } },
    });
    expect(b.sceneIds).toEqual(groupOrder);
    expect(await e2eDb().activitySceneOrder.count({ where: { activityId: activity.id, group: "A" } })).toBe(0);
    expect((await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id } })).title).toBe("方程式（１組）");

    // the second editor's save loses cleanly
    await page2.getByTestId("order-default").locator("li").first().getByTestId("move-down").click();
    await page2.getByTestId("save-order").click();
    await expectNotification(page2, "ほかの人が先に変更しました");
    const unchanged = await scenesOf(activity.id);
    expect(unchanged.map((s) => s.id)).toEqual(afterDrag);
    await other.close();
  });

  test("another school's activity cannot be opened for editing", async ({ page }) => {
    const mine = await makeSchool(0);
    const theirs = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: theirs.school.id,
      title: "よその学校のふりかえり",
    });
    await signInAs(page, mine.teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    await expect(page.getByTestId("error-page")).toBeVisible();
    await expect(page.locator("body")).not.toContainText("よその学校");
  });
});

test.describe("who answers", () => {
  test("the editor changes who answers an activity nobody has answered; with answers it says why not and keeps the choice", async ({
    page,
  }) => {
    const { teacher, school, students } = await makeSchool(1);
    const fresh = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "standby",
    });
    const used = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "complete",
    });
    const scene = await e2eDb().activityScene.findFirstOrThrow({
      where: { activityId: used.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    await e2eDb().response.create({
      data: {
        activityId: used.id,
        sceneId: scene.id,
        userId: students[0]!.id,
        answer: { seen: true },
        scenePosition: 0,
        mode: "self",
        clientRevision: 1,
        idempotencyKey: `k-${used.id}`,
      },
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);

    await page.goto(editUrl(fresh.id));
    await page.getByTestId("actor-select").selectOption("teacher");
    await expectNotification(page, "答える人を変えました。");
    await expect
      .poll(
        async () =>
          (await e2eDb().activity.findUniqueOrThrow({ where: { id: fresh.id }, select: { actorType: true } }))
            .actorType,
      )
      .toBe("teacher");

    await page.goto(editUrl(used.id));
    await page.getByTestId("actor-select").selectOption("teacher");
    await expectNotification(page, "回答がある活動や、実施中の活動は、答える人を変えられません。");
    await expect(page.getByTestId("actor-select")).toHaveValue("student");
    expect(
      (await e2eDb().activity.findUniqueOrThrow({ where: { id: used.id }, select: { actorType: true } })).actorType,
    ).toBe("student");
  });
});
