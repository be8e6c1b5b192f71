import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { editUrl, expectAccessible, expectNotification, signInAs } from "./helpers";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { mouseLine, touchLine } from "./drawing-input";

const strokesStored = async (sceneId: string, userId: string) => {
  const r = await e2eDb().response.findFirst({ where: { sceneId, userId }, select: { answer: true } });
  return r ? (r.answer as { strokes: unknown[] }).strokes.length : null;
};

test.describe("drawing scenes", () => {
  // one long walk through three people's screens: on a loaded CI box (load 20–30) it takes minutes
  test.setTimeout(240_000);

  test("a teacher adds a drawing scene; a student draws with mouse and finger on a phone, undoes and clears; the teacher sees the drawing as SVG", async ({
    page,
    browser,
  }) => {
    const { teacher, school, students } = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
      mode: "self",
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    await page.getByTestId("add-type").selectOption("drawing");
    await page.getByTestId("add-scene").click();
    await expectNotification(page, "シーンを追加しました");
    await expect
      .poll(
        async () =>
          (await e2eDb().activityScene.findMany({ where: { activityId: activity.id, type: "drawing" } })).length,
      )
      .toBe(1);
    const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: activity.id, type: "drawing" } });
    expect(scene.content).toEqual({ prompt: "絵や図をかきましょう。" });
    // the form opens on the new scene: instructions, saved
    const item = page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
    const form = item.getByTestId("scene-form");
    await expect(form).toBeVisible();
    await form.locator('[data-field="content.instructions"]').fill("葉と根をかきましょう。");
    // the preview draws (nothing is saved) and "clear" empties it once confirmed
    const previewCanvas = item.getByTestId("scene-preview").getByTestId("drawing-canvas");
    await expect(previewCanvas).toBeVisible();
    await mouseLine(page, previewCanvas, [0.2, 0.2], [0.7, 0.7]);
    await expect(previewCanvas).toHaveAttribute("data-strokes", "1");
    // leaving the form for the canvas saved it: the page has refreshed before the next click
    await expect(form.getByTestId("autosave-state")).toHaveAttribute("data-state", "saved");
    await item.getByTestId("drawing-clear").click();
    await expect(page.getByTestId("confirm-body")).toContainText("かいた線を全部消します。");
    await page.getByTestId("confirm-ok").click();
    await expect(previewCanvas).toHaveAttribute("data-strokes", "0");
    await expectAccessible(page);
    await form.getByTestId("save-scene").click();
    await expectNotification(page, "シーンを保存しました");
    await expect
      .poll(async () => (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content)
      .toEqual({ prompt: "絵や図をかきましょう。", instructions: "葉と根をかきましょう。" });

    // a student on a phone: mouse and finger
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true });
    const student = await phone.newPage();
    // the canvas's code comes only with a drawing scene (a dynamic import): not with the other scenes
    const scripts: string[] = [];
    student.on("response", async (res) => {
      if (res.request().resourceType() === "script") scripts.push(await res.text().catch(() => ""));
    });
    const withCanvas = () => scripts.filter((body) => body.includes("drawing-canvas")).length;
    await signInAs(student, students[0]!.email!, TEST_PASSWORD);
    await student
      .getByTestId("my-activities")
      .locator(`[data-activity-id="${activity.id}"]`)
      .getByTestId("go-start")
      .click();
    for (let i = 0; i < 3; i++) await student.getByTestId("next").click();
    await expect(student.getByTestId("scene")).toHaveAttribute("data-scene-type", "free_text");
    await student.waitForLoadState("networkidle");
    expect(withCanvas()).toBe(0);
    await student.getByTestId("next").click();
    const canvas = student.getByTestId("drawing-canvas");
    await expect(canvas).toBeVisible();
    await expect.poll(withCanvas).toBeGreaterThan(0);
    await expect(student.getByTestId("scene")).toContainText("葉と根をかきましょう。");
    // the canvas fits the phone: the page does not scroll sideways
    expect(await student.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await mouseLine(student, canvas, [0.1, 0.1], [0.8, 0.3]);
    await expect(canvas).toHaveAttribute("data-strokes", "1");
    await student.getByTestId("pen-red").check({ force: true });
    await touchLine(student, canvas, [0.2, 0.8], [0.7, 0.5]);
    await expect(canvas).toHaveAttribute("data-strokes", "2");
    await expect(canvas.locator("path")).toHaveCount(2);
    await expect.poll(() => strokesStored(scene.id, students[0]!.id), { timeout: 30_000 }).toBe(2);
    await expectAccessible(student);
    // undo the last stroke; clear asks first (cancel keeps the drawing)
    await student.getByTestId("drawing-undo").click();
    await expect(canvas).toHaveAttribute("data-strokes", "1");
    await touchLine(student, canvas, [0.5, 0.2], [0.5, 0.9]);
    await expect(canvas).toHaveAttribute("data-strokes", "2");
    await student.getByTestId("drawing-clear").click();
    await student.getByTestId("confirm-cancel").click();
    await expect(canvas).toHaveAttribute("data-strokes", "2");
    await expect.poll(() => strokesStored(scene.id, students[0]!.id), { timeout: 30_000 }).toBe(2);
    const stored = (
      await e2eDb().response.findFirstOrThrow({
        where: { sceneId: scene.id, userId: students[0]!.id },
        select: { answer: true },
      })
    ).answer as {
      width: number;
      strokes: { color: string; points: number[][] }[];
    };
    expect(stored.width).toBe(1000);
    expect(stored.strokes[0]!.color).toBe("#1f2937");
    expect(stored.strokes[1]!.color).toBe("#dc2626");
    for (const s of stored.strokes) for (const p of s.points) expect(p.every((v) => Number.isInteger(v))).toBe(true); // no pressure from mouse or finger
    // the drawing survives a reload, even a stroke not sent yet (queued on the device as the page hides)
    await mouseLine(student, canvas, [0.3, 0.3], [0.6, 0.6]);
    await expect(canvas).toHaveAttribute("data-strokes", "3");
    await student.reload();
    for (let i = 0; i < 4; i++) await student.getByTestId("next").click();
    await expect(student.getByTestId("drawing-canvas")).toHaveAttribute("data-strokes", "3");
    await expect.poll(() => strokesStored(scene.id, students[0]!.id), { timeout: 30_000 }).toBe(3);

    // crafted over HTTP: a forged colour is refused, a huge drawing does not even get read
    const post = (answer: unknown, clientRevision: number) =>
      student.request.post("/api/v1/answers", {
        data: {
          activityId: activity.id,
          sceneId: scene.id,
          answer,
          clientRevision,
          idempotencyKey: `forged${clientRevision}xx`,
          mode: "self",
        },
        headers: { "Content-Type": "application/json", Origin: BASE_URL },
        failOnStatusCode: false,
      });
    const forged = await post(
      { width: 1000, height: 750, strokes: [{ color: '"/><script>alert(1)</script>', size: 8, points: [[1, 1]] }] },
      1000,
    );
    expect(forged.status()).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "VALIDATION", reason: "invalidAnswer" });
    const huge = await post(
      {
        width: 1000,
        height: 750,
        strokes: Array.from({ length: 40 }, () => ({
          color: "#1f2937",
          size: 8,
          points: Array.from({ length: 500 }, () => [999, 749, 0.99]),
        })),
      },
      1001,
    );
    expect(huge.status()).toBe(413);
    expect(await strokesStored(scene.id, students[0]!.id)).toBe(3);
    await phone.close();

    // the teacher sees it as SVG drawn on the server
    await page.goto(`/dashboard/teacher/activities/response/${activity.id}/${students[0]!.id}`);
    const picture = page.locator(`[data-scene-id="${scene.id}"]`).getByTestId("drawing-svg");
    await expect(picture).toHaveAttribute("data-strokes", "3");
    await expect(picture.locator("path")).toHaveCount(3);
    await expect(picture.locator("path").nth(1)).toHaveAttribute("fill", "#dc2626");
    await expect(page.getByTestId("drawing-canvas")).toHaveCount(0);
    await expectAccessible(page);
    // the stats page: a gallery of thumbnails, names per the names toggle
    await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
    const section = page.locator(`[data-scene-id="${scene.id}"]`);
    await expect(section.getByTestId("drawing-gallery").getByTestId("drawing-svg")).toHaveCount(1);
    await expect(section.getByTestId("drawing-gallery")).toContainText("1");
    await expectAccessible(page);
  });
});
