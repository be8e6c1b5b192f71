import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { playDissolveToChoice } from "./dissolve";
import { editUrl, expectAccessible, expectNotification, signInAs, tabTo } from "./helpers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";

test.describe("scene editor", () => {
  test("a teacher edits a choice scene by keyboard alone, sees ruby and math in the preview, saves; a student playing it sees the new text", async ({
    page,
    browser,
  }) => {
    const { teacher, school, students } = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const choice = (await scenesOf(activity.id))[2]!; // single_choice "solution"
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));

    const item = page.locator(`[data-scene-id="${choice.id}"][data-testid="scene-item"]`);
    await item.getByTestId("edit-scene").focus();
    await page.keyboard.press("Enter");
    const form = item.getByTestId("scene-form");
    await expect(form).toBeVisible();
    // the question has the focus: replace it; Tab to each option label and replace it
    await expect(form.locator('[data-field="content.prompt"]')).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("|水溶液(すいようえき)はどれ？ `x^2`");
    for (const [i, label] of ["すき通っている", "にごっている", "色がついている"].entries()) {
      // past each field's furigana button, remove button and the next field's toolbar (one tab stop each)
      await tabTo(page, form.locator(`[data-field="content.options.${i}.label"]`));
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type(label);
      await page.keyboard.press("Tab");
    }
    const preview = item.getByTestId("scene-preview");
    // the teacher's display language is plain Japanese: the ruby markup shows as its base text
    await expect(preview.getByTestId("scene")).toContainText("水溶液はどれ？");
    await expect(preview.locator(".katex")).toHaveCount(1);
    await expect(preview.locator('[data-option="cloudy"]')).toContainText("にごっている");
    await expectAccessible(page);
    // an emptied option is refused with a message, nothing is saved (back past its 「正解」 box and tools to the last label)
    await tabTo(page, form.locator('[data-field="content.options.2.label"]'), 12, "Shift+Tab");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Delete");
    await page.keyboard.press("Enter");
    await expect(form.getByTestId("field-error")).toHaveText("入力してください。");
    // (the form saves by itself, but never an invalid form: the stored option keeps a label)
    expect(
      (
        (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: choice.id } })).content as {
          options: { label: string }[];
        }
      ).options[2]!.label,
    ).not.toBe("");
    await page.keyboard.type("色がついている");
    await page.keyboard.press("Enter");
    await expectNotification(page, "シーンを保存しました");
    await expect
      .poll(
        async () =>
          ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: choice.id } })).content as { prompt: string })
            .prompt,
      )
      .toBe("|水溶液(すいようえき)はどれ？ `x^2`");

    // the student sees the new question and options
    const other = await browser.newContext();
    const student = await playDissolveToChoice(await other.newPage(), students[0]!.email!, activity.id);
    await expect(student.getByTestId("scene")).toContainText("はどれ？");
    await expect(student.getByTestId("scene").locator("ruby rt")).toContainText("すいようえき");
    await expect(student.locator('[data-option="cloudy"]')).toContainText("にごっている");
    await other.close();
  });

  test("two editors: the stale save is refused with 'reload', nothing of it is stored", async ({ page, browser }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
    });
    const scene = (await scenesOf(activity.id))[1]!;
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    const other = await browser.newContext();
    const page2 = await other.newPage();
    await signInAs(page2, teacher.email!, TEST_PASSWORD);
    await page2.goto(editUrl(activity.id));

    const open = async (p: typeof page) => {
      const item = p.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
      await item.getByTestId("edit-scene").click();
      return item.getByTestId("scene-form");
    };
    const form1 = await open(page);
    const form2 = await open(page2);
    await form1.locator('[data-field="content.prompt"]').fill("一人目の問い");
    await form1.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    await form2.locator('[data-field="content.prompt"]').fill("二人目の問い");
    await form2.getByTestId("save-scene").click();
    await expect(form2.getByTestId("scene-problem")).toContainText("ほかの人がこのアクティビティを変更しました");
    expect(
      ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content as { prompt: string })
        .prompt,
    ).toBe("一人目の問い");
    await form2.getByTestId("reload").click();
    await expect(page2.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`)).toContainText(
      "一人目の問い",
    );
    await other.close();
  });

  test("the teacher's own order save does not make an open scene form stale", async ({ page }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
    });
    const scene = (await scenesOf(activity.id))[1]!;
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    const item = page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
    await item.getByTestId("edit-scene").click();
    await item.getByTestId("scene-form").locator('[data-field="content.prompt"]').fill("並べ替えの後の問い");
    await page.getByTestId("order-default").locator("li").first().getByTestId("move-down").click();
    await page.getByTestId("save-order").click();
    await expectNotification(page, "保存しました");
    // the form saved itself as the focus left it (2), then the order after it (3): neither refused the other
    await expect
      .poll(async () => (await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id } })).version)
      .toBe(3);
    await item.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    await expect
      .poll(
        async () =>
          ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content as { prompt: string })
            .prompt,
      )
      .toBe("並べ替えの後の問い");
  });

  test("a scene save keeps an unsaved title, and the order save right after it is accepted", async ({ page }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
    });
    const scene = (await scenesOf(activity.id))[1]!;
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    const title = page.locator('input[name="title"]');
    await title.fill("題名を変えている途中");
    const item = page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
    await item.getByTestId("edit-scene").click();
    await item.getByTestId("scene-form").locator('[data-field="content.prompt"]').fill("先に保存する問い");
    await item.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    // at once, without waiting for the page's refresh after the scene save
    await page.getByTestId("save-order").click();
    await expectNotification(page, "保存しました");
    await expect(title).toHaveValue("題名を変えている途中");
    await expect
      .poll(async () => (await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id } })).title)
      .toBe("題名を変えている途中");
    expect(
      ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content as { prompt: string })
        .prompt,
    ).toBe("先に保存する問い");
  });

  test("a scene save and an add clicked while the save is on its way both land: the add waits for the save (no 'someone else changed' for the teacher's own clicks)", async ({
    page,
  }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
    });
    const scene = (await scenesOf(activity.id))[1]!;
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    const item = page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
    await item.getByTestId("edit-scene").click();
    await item.getByTestId("scene-form").locator('[data-field="content.prompt"]').fill("すぐ次を押す問い");
    // the server's answer to the save is slowed: the next clicks come while it is on its way
    await page.route("**/*", async (route) => {
      if (route.request().method() === "POST" && (route.request().postData() ?? "").includes("すぐ次を押す問い"))
        await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await item.getByTestId("save-scene").click();
    await page.getByTestId("add-type").selectOption("free_text");
    await page.getByTestId("add-scene").click();
    // watched at once: the save's notification comes first and may be gone (5 s) before a slow add's shows
    await Promise.all([
      expectNotification(page, "シーンを追加しました"),
      expectNotification(page, "シーンを保存しました"),
    ]);
    await expect(page.getByTestId("scene-item")).toHaveCount(5);
    await expect(page.getByTestId("notification").filter({ hasText: "ほかの人" })).toHaveCount(0);
    expect((await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id } })).version).toBe(3);
    expect(
      ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content as { prompt: string })
        .prompt,
    ).toBe("すぐ次を押す問い");
  });

  test("add, duplicate and delete scenes (with confirmation); the last scene cannot be deleted", async ({ page }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    const items = page.getByTestId("scene-item");
    await expect(items).toHaveCount(4);
    await page.getByTestId("add-type").selectOption("two_step");
    await page.getByTestId("add-scene").click();
    await expectNotification(page, "シーンを追加しました");
    await expect(items).toHaveCount(5);
    await expect(items.nth(4).getByTestId("scene-form")).toBeVisible();
    await expect(items.nth(4).getByTestId("scene-preview").getByTestId("scene")).toBeVisible();
    await items.nth(0).getByTestId("duplicate-scene").click();
    await expectNotification(page, "シーンを複製しました");
    await expect(items).toHaveCount(6);
    const scenes = await scenesOf(activity.id);
    expect(scenes[1]!.content).toEqual(scenes[0]!.content);
    expect(scenes[5]!.type).toBe("two_step");
    // delete asks first; cancelling keeps the scene
    await items.nth(1).getByTestId("delete-scene").click();
    await page.getByTestId("confirm-cancel").click();
    await expect(items).toHaveCount(6);
    for (let left = 6; left > 1; left--) {
      await items.nth(0).getByTestId("delete-scene").click();
      await page.getByTestId("confirm-ok").click();
      await expect(items).toHaveCount(left - 1);
    }
    await expect(items.nth(0).getByTestId("delete-scene")).toBeDisabled();
    expect(await e2eDb().activityScene.count({ where: { activityId: activity.id } })).toBe(1);
  });

  test("page loads that stall on a school's network hold nothing: a duplicate and a delete each show from their own action's answer, and the buttons stay usable", async ({
    page,
  }) => {
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    const items = page.getByTestId("scene-item");
    await expect(items).toHaveCount(4);
    // from now on every page refresh (a GET for the page's server components) stalls: sent, never answered
    const stalled: Array<() => void> = [];
    await page.route("**/*", async (route) => {
      if (route.request().method() !== "GET" || route.request().headers()["rsc"] !== "1") return route.continue();
      await new Promise<void>((release) => stalled.push(release));
      await route.abort().catch(() => undefined);
    });
    await items.nth(0).getByTestId("duplicate-scene").click();
    await expectNotification(page, "シーンを複製しました");
    await expect(items).toHaveCount(5);
    await expect(items.nth(1).getByTestId("delete-scene")).toBeEnabled({ timeout: 15_000 });
    await items.nth(1).getByTestId("delete-scene").click();
    await page.getByTestId("confirm-ok").click();
    await expectNotification(page, "シーンを削除しました");
    await expect(items).toHaveCount(4);
    expect(await e2eDb().activityScene.count({ where: { activityId: activity.id } })).toBe(4);
    for (const release of stalled) release();
  });

  test("a teacher creates an activity from nothing: a title is required, then the editor opens on its one information scene", async ({
    page,
  }) => {
    const { teacher, school } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/activities");
    const blank = page.getByTestId("blank-activity");
    await blank.getByTestId("create-blank").click();
    await expect(blank.getByTestId("field-error")).toHaveText("入力してください。");
    expect(await e2eDb().activity.count({ where: { schoolId: school.id } })).toBe(0);
    await blank.getByTestId("blank-title").fill("白紙からの授業");
    await blank.getByTestId("create-blank").click();
    await expect(page).toHaveURL(/\/dashboard\/teacher\/activities\/edit\/[0-9a-f-]{36}$/);
    const items = page.getByTestId("scene-item");
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText("新しい説明");
    await expect(items.first().getByTestId("delete-scene")).toBeDisabled();
    const made = await e2eDb().activity.findFirstOrThrow({
      where: { schoolId: school.id },
      select: { title: true, templateId: true },
    });
    expect(made).toEqual({ title: "白紙からの授業", templateId: null });
  });
});

test("a manager edits a school's activity from the school's list (each save names the school), creates one from nothing for it; another academy's manager gets not found", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { manager, school } = await makeSchool(0);
  const other = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    title: "管理者が直す",
  });
  const scene = (await scenesOf(activity.id))[1]!;
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/manager/activities/${school.id}`);
  await page.locator(`tr[data-activity-id="${activity.id}"]`).getByRole("link", { name: "編集" }).click();
  await expect(page).toHaveURL(`/dashboard/manager/activities/edit/${school.id}/${activity.id}`);
  const item = page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
  await item.getByTestId("edit-scene").click();
  await item.getByTestId("scene-form").locator('[data-field="content.prompt"]').fill("管理者の問い");
  await item.getByTestId("save-scene").click();
  await expectNotification(page, "シーンを保存しました");
  await expect
    .poll(
      async () =>
        ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content as { prompt: string })
          .prompt,
    )
    .toBe("管理者の問い");

  await page.goto(`/dashboard/manager/activities/${school.id}`);
  await page.getByTestId("blank-activity").getByTestId("blank-title").fill("管理者の白紙");
  await page.getByTestId("blank-activity").getByTestId("create-blank").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/manager/activities/edit/${school.id}/[0-9a-f-]{36}$`));
  expect(await e2eDb().activity.count({ where: { schoolId: school.id, title: "管理者の白紙" } })).toBe(1);

  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await signInAs(strangerPage, other.manager.email!, TEST_PASSWORD);
  const res = await strangerPage.goto(`/dashboard/manager/activities/edit/${school.id}/${activity.id}`);
  expect(res?.status()).toBe(404);
  await stranger.close();
});
