import { createHash } from "node:crypto";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { devices, signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { baseText, expectAccessible } from "./helpers";
import { sceneOf } from "./guide";

/**
 * The projector view (docs/adr/0064-projector-links.md): a teacher, a classroom screen with no
 * sign-in and five students, each on a device of their own. The screen follows the scene, the chart
 * follows the answers, the answers are anonymous until the teacher shows names, "starred only"
 * shows exactly the starred, the link cannot answer, and the screen says the lesson is over when it
 * ends.
 */
const signedIn = signedInBrowsers();
const device = devices();
const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };

test("a projector page: the scene, a live chart, anonymous answers, stars, names only while on, no answering, and the end of the lesson", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { teacher, school, students } = await makeSchool(5);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes[2]!;
  const text = scenes[4]!;

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  await expect(teacherPage.getByTestId("guide-console")).toHaveAttribute("data-scene-id", choice.id);

  // the teacher opens the projector screen: a new window, and the link to copy
  const [popup] = await Promise.all([
    teacherPage.waitForEvent("popup"),
    teacherPage.getByTestId("projector-open").click(),
  ]);
  const link = await teacherPage.getByTestId("projector-link").inputValue();
  expect(link).toMatch(/\/projector\/[A-Za-z0-9_-]{43}$/);
  await expect(popup).toHaveURL(link);
  await popup.close();
  const token = link.split("/").pop()!;
  // the classroom PC: not signed in, a 1280×720 screen
  const projector = await (await device(browser, { viewport: { width: 1280, height: 720 } })).newPage();
  await projector.goto(link);
  const live = projector.getByTestId("projector-live");
  await expect(live).toHaveAttribute("data-scene-id", choice.id);
  await expect(projector.locator('[data-option="clear"]')).toBeVisible();
  // nothing to answer, nowhere to go
  await expect(projector.locator("a[href]")).toHaveCount(0);

  const kids: Page[] = [];
  for (const [i, s] of students.entries()) {
    const page = await signedIn(browser, s.email!, i % 2 ? TABLET : PHONE);
    await page.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(sceneOf(page)).toHaveAttribute("data-scene-id", choice.id);
    kids.push(page);
  }

  // results shown: the chart counts the answers as they arrive
  await teacherPage.getByTestId("toggle-results").click();
  const bars = projector.getByTestId("projector-results");
  await expect(bars).toBeVisible();
  const picks = ["clear", "cloudy", "clear", "clear", "cloudy"];
  for (const [i, kid] of kids.entries()) {
    await kid.locator(`[data-option="${picks[i]}"] input`).check();
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
    const count = (option: string) => String(picks.slice(0, i + 1).filter((p) => p === option).length);
    await expect(bars.locator('[data-option="clear"]')).toHaveAttribute("data-count", count("clear"));
    await expect(bars.locator('[data-option="cloudy"]')).toHaveAttribute("data-count", count("cloudy"));
  }
  await expectAnonymous(projector, students);
  await expectAccessible(projector);

  // the free-text scene: the screen follows; the answers come by arrival, with no name
  await teacherPage.getByTestId("guide-jump").selectOption(text.id);
  await expect(live).toHaveAttribute("data-scene-id", text.id);
  const texts = ["とけて見えなくなる", "水がにごる", "重さは変わらない", "底にしずむ", "色がうすくなる"];
  for (const [i, kid] of kids.entries()) {
    await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", text.id);
    await kid.locator("textarea").fill(texts[i]!);
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  }
  await teacherPage.getByTestId("toggle-results").click();
  const shown = projector.getByTestId("result-text-body");
  await expect(shown).toHaveCount(5);
  expect((await shown.allTextContents()).sort()).toEqual([...texts].sort());
  await expectAnonymous(projector, students);

  // the teacher stars two answers; "starred only" shows exactly those
  const answers = teacherPage.getByTestId("results");
  for (const t of [texts[1]!, texts[3]!]) {
    await answers.getByTestId("result-text").filter({ hasText: t }).getByTestId("star-answer").click();
    await expect(answers.getByTestId("result-text").filter({ hasText: t })).toHaveAttribute("data-starred", "true");
  }
  await teacherPage.getByTestId("projector-starred-only").click();
  await expect(bars).toHaveAttribute("data-starred-only", "true");
  await expect(shown).toHaveCount(2);
  expect((await shown.allTextContents()).sort()).toEqual([texts[1]!, texts[3]!].sort());
  await expectAnonymous(projector, students);

  // names: shown while the teacher has them on, gone when turned off
  await teacherPage.getByTestId("toggle-names").click();
  await expect(projector.getByTestId("result-name")).toHaveCount(2);
  await expect(projector.getByTestId("result-name").first()).toContainText("試験 花子");
  await teacherPage.getByTestId("toggle-names").click();
  await expect(projector.getByTestId("result-name")).toHaveCount(0);
  await expectAnonymous(projector, students);

  // the link cannot answer: the answer endpoint refuses the projector's browser, with the token or without
  const before = await e2eDb().response.count({ where: { activityId: activity.id } });
  for (const headers of [{}, { Authorization: `Bearer ${token}` }, { Cookie: `projector=${token}` }] as Record<
    string,
    string
  >[]) {
    const reply = await projector.request.post(`/api/v1/answers?token=${token}`, {
      headers: { "Content-Type": "application/json", Origin: new URL(link).origin, ...headers },
      data: {
        activityId: activity.id,
        sceneId: text.id,
        answer: { text: "なりすまし" },
        clientRevision: 1,
        idempotencyKey: `projector-${token.slice(0, 8)}`,
        mode: "guide",
      },
    });
    expect(reply.status()).toBe(401);
  }
  expect(await e2eDb().response.count({ where: { activityId: activity.id } })).toBe(before);

  // the end of the lesson: the screen says so, its stream and state are gone
  await teacherPage.getByTestId("end-session").click();
  await teacherPage.locator('dialog[open] [data-testid="confirm-ok"]').click();
  await expect(projector.getByTestId("projector-ended")).toBeVisible();
  expect(await baseText(projector.getByTestId("projector-ended"))).toContain("この授業は終わりました");
  expect((await projector.request.get(`/api/v1/projector/${token}/state`)).status()).toBe(410);
  expect((await projector.request.get(`/api/v1/projector/${token}/events`)).status()).toBe(410);
  await projector.reload();
  expect(await baseText(projector.getByTestId("projector-ended"))).toContain("この授業は終わりました");
});

test("a projector link the teacher revokes stops at once; the running screen fits a phone's width", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const { teacherPage, link } = await startWithProjector(browser, teacher.email!, activity.id);
  const screen = await (await device(browser, { viewport: { width: 360, height: 740 } })).newPage();
  await screen.goto(link);
  await expect(screen.getByTestId("projector-live")).toBeVisible();
  expect(await screen.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await teacherPage.getByTestId("projector-revoke").click();
  await expect(screen.getByTestId("projector-ended")).toBeVisible();
  expect((await screen.request.get(`${link.replace("/projector/", "/api/v1/projector/")}/state`)).status()).toBe(410);
});

/** The teacher starts the lesson (on `sceneId` if given) and opens a projector link: their page and the link. */
async function startWithProjector(browser: Browser, email: string, activityId: string, sceneId?: string) {
  const teacherPage = await signedIn(browser, email);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activityId}`);
  await teacherPage.getByTestId("start-session").click();
  if (sceneId) {
    await teacherPage.getByTestId("guide-jump").selectOption(sceneId);
    await expect(teacherPage.getByTestId("guide-console")).toHaveAttribute("data-scene-id", sceneId);
  }
  const [popup] = await Promise.all([
    teacherPage.waitForEvent("popup"),
    teacherPage.getByTestId("projector-open").click(),
  ]);
  await popup.close();
  return { teacherPage, link: await teacherPage.getByTestId("projector-link").inputValue() };
}

/** An image of the school, stored as an upload stores it (its row and its bytes). */
async function storedImage(schoolId: string, width: number, height: number, background: string) {
  const png = await sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
  const sha256 = createHash("sha256").update(png).digest("hex");
  const image = await e2eDb().image.create({
    data: { schoolId, contentType: "image/png", width, height, byteSize: png.byteLength, sha256 },
    select: { id: true },
  });
  await e2eDb().imageContent.upsert({ where: { sha256 }, create: { sha256, data: new Uint8Array(png) }, update: {} });
  return { id: image.id, width, height };
}

/** Places an image on a scene (alt text `alt`) and one on its first option. */
async function placeImages(sceneId: string, schoolId: string, alt: string) {
  const scene = await storedImage(schoolId, 320, 200, "#3366cc");
  const option = await storedImage(schoolId, 120, 80, "#cc3333");
  const { content } = await e2eDb().activityScene.findUniqueOrThrow({
    where: { id: sceneId },
    select: { content: true },
  });
  const c = content as { options: { id: string; label: string }[] };
  const options = c.options.map((o, i) => (i === 0 ? { ...o, image: { ...option, alt: `${alt}の答え` } } : o));
  await e2eDb().activityScene.update({
    where: { id: sceneId },
    data: { content: { ...c, options, image: { ...scene, alt } } },
  });
  return { scene: scene.id, option: option.id };
}

/** The image is really shown: decoded (natural size above 0), not its alt text. */
async function expectDecoded(img: Locator) {
  await img.scrollIntoViewIfNeeded();
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
}

test("the projector shows its lesson's images without sign-in; another activity's are refused, and they stop with the link (410)", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const other = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const choice = (await scenesOf(activity.id))[2]!;
  const otherChoice = (await scenesOf(other.id))[2]!;
  const mine = await placeImages(choice.id, school.id, "青いビーカー");
  const theirs = await placeImages(otherChoice.id, school.id, "別の授業の図");

  const { teacherPage, link } = await startWithProjector(browser, teacher.email!, activity.id, choice.id);
  const token = link.split("/").pop()!;

  // the classroom PC: no sign-in, no cookie at all
  const projector = await (await device(browser, { viewport: { width: 1280, height: 720 } })).newPage();
  expect(await projector.context().cookies()).toEqual([]);
  await projector.goto(link);
  await expect(projector.getByTestId("projector-live")).toHaveAttribute("data-scene-id", choice.id);
  const images = projector.getByTestId("projector-live").getByTestId("scene-image");
  await expect(images).toHaveCount(2);
  await expect(images.nth(0)).toHaveAttribute("alt", "青いビーカー");
  for (const img of await images.all()) await expectDecoded(img);
  const srcs = await images.evaluateAll((els) => els.map((el) => (el as HTMLImageElement).src));
  expect(srcs.sort()).toEqual(
    [mine.scene, mine.option].map((id) => `${new URL(link).origin}/api/v1/projector/${token}/images/${id}`).sort(),
  );

  // the same school's other activity: its images are not this link's to read, nor through the signed-in route
  for (const id of [theirs.scene, theirs.option]) {
    expect((await projector.request.get(`/api/v1/projector/${token}/images/${id}`)).status()).toBe(404);
    expect((await projector.request.get(`/api/v1/images/${id}`)).status()).toBe(401);
  }

  // the teacher stops the link: its images stop with it
  await teacherPage.getByTestId("projector-revoke").click();
  await expect(projector.getByTestId("projector-ended")).toBeVisible();
  for (const src of srcs) expect((await projector.request.get(src)).status()).toBe(410);
});

/** No student's name, kana name or id anywhere in the projector's page (its DOM, attributes included). */
async function expectAnonymous(page: Page, students: { id: string; name: string | null }[]) {
  const html = await page.content();
  for (const s of students) {
    expect(html).not.toContain(s.id);
    if (s.name) expect(html).not.toContain(s.name);
  }
  expect(html).not.toContain("花子");
  expect(html).not.toContain("はなこ");
}
