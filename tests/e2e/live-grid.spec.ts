import { expect, type Page, test } from "@playwright/test";
import { LIVE_CHANNEL, livePayload } from "../../platform/notify/channel";
import { createActivityFromTemplate, createUser } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { pickClass, sceneOf } from "./guide";

const signedIn = signedInBrowsers();
const cell = (page: Page, id: string) => page.locator(`[data-testid="grid-student"][data-student-id="${id}"]`);

test("who is still working: the class's students by 番号 go from not joined to working, answered and offline; counts follow; Enter on a student shows their answer; names never reach a student", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, school, students } = await makeSchool(4);
  // the fourth student is in another class: never in this session's grid
  await e2eDb().studentDetail.update({ where: { userId: students[3]!.id }, data: { className: "2", number: 1 } });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes[2]!;

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await pickClass(teacherPage, "1:1");
  await teacherPage.getByTestId("start-session").click();
  await expect(teacherPage.getByTestId("session-class")).toHaveAttribute("data-class", "1:1");
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  const grid = teacherPage.getByTestId("live-grid");
  await expect(grid).toHaveAttribute("data-students", "3");
  await expect(teacherPage.getByTestId("grid-student")).toHaveCount(3);
  // sorted by 番号
  expect(
    await teacherPage
      .getByTestId("grid-student")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-student-id"))),
  ).toEqual(students.slice(0, 3).map((s) => s.id));
  for (const s of students.slice(0, 3))
    await expect(cell(teacherPage, s.id)).toHaveAttribute("data-state", "notJoined");
  await expect(teacherPage.getByTestId("grid-counts")).toHaveAttribute("data-answered", "0");

  // three students join (the second polling, as behind a buffering proxy): working
  const kids: Page[] = [];
  const polled: string[] = [];
  for (const [i, s] of students.slice(0, 3).entries()) {
    const page = await signedIn(
      browser,
      s.email!,
      i === 0 ? { width: 360, height: 740 } : { width: 768, height: 1024 },
    );
    page.on("response", async (r) => {
      if (r.url().includes("/api/v1/live/") && r.url().includes("/state")) polled.push(await r.text().catch(() => ""));
    });
    await page.goto(`/dashboard/student/activities/session/${activity.id}${i === 1 ? "?live=poll" : ""}`);
    await expect(sceneOf(page)).toHaveAttribute("data-scene-id", choice.id);
    kids.push(page);
  }
  for (const s of students.slice(0, 3)) await expect(cell(teacherPage, s.id)).toHaveAttribute("data-state", "working");
  await expect(teacherPage.getByTestId("grid-counts")).toHaveAttribute("data-working", "3");

  // the first answers: answered, 1 / 3
  await kids[0]!.locator('[data-option="cloudy"] input').check();
  await expect(kids[0]!.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await expect(cell(teacherPage, students[0]!.id)).toHaveAttribute("data-state", "answered");
  await expect(teacherPage.getByTestId("grid-counts")).toHaveAttribute("data-answered", "1");
  await expect(teacherPage.getByTestId("grid-counts")).toContainText("1 / 3");

  // the keyboard: focus the first student, Enter shows their answer (the option they chose)
  await cell(teacherPage, students[0]!.id).focus();
  await teacherPage.keyboard.press("Enter");
  const answer = teacherPage.getByTestId("grid-answer");
  await expect(answer).toHaveAttribute("data-status", "done");
  await expect(answer.locator('[data-option="cloudy"] input')).toBeChecked();
  // a working student has none yet
  await cell(teacherPage, students[1]!.id).click();
  await expect(teacherPage.getByTestId("grid-answer")).toHaveAttribute("data-student-id", students[1]!.id);
  await expect(teacherPage.getByTestId("grid-no-answer")).toBeVisible();
  // they answer while shown: the panel follows
  await kids[1]!.locator('[data-option="clear"] input').check();
  await expect(teacherPage.getByTestId("grid-answer").locator('[data-option="clear"] input')).toBeChecked();
  await expect(teacherPage.getByTestId("grid-counts")).toHaveAttribute("data-answered", "2");

  // the third closes their tablet: offline
  await kids[2]!.context().close();
  await expect(cell(teacherPage, students[2]!.id)).toHaveAttribute("data-state", "offline", { timeout: 60_000 });
  await expect(teacherPage.getByTestId("grid-counts")).toHaveAttribute("data-offline", "1");

  // names are staff data: not in what a student's page or poll got (their own name is in their top bar)
  const html = await kids[0]!.content();
  for (const s of students.slice(1)) expect(html).not.toContain(s.name!);
  expect(polled.length).toBeGreaterThan(0);
  for (const body of polled) for (const s of students) expect(body).not.toContain(s.name!);
});

test("two classes in turn: a student of the other class waits; the session, the grid and the counts of one class never show the other's", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, school, students } = await makeSchool(2);
  await e2eDb().studentDetail.update({ where: { userId: students[1]!.id }, data: { className: "2", number: 1 } });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes[2]!;
  const [a, b] = students as [(typeof students)[number], (typeof students)[number]];

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await pickClass(teacherPage, "1:1");
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  const kidA = await signedIn(browser, a.email!, { width: 768, height: 1024 });
  const kidB = await signedIn(browser, b.email!, { width: 768, height: 1024 });
  await kidA.goto(`/dashboard/student/activities/session/${activity.id}`);
  await kidB.goto(`/dashboard/student/activities/session/${activity.id}`);
  await expect(sceneOf(kidA)).toHaveAttribute("data-scene-id", choice.id);
  // class 1-2's student: the session is not theirs, they wait
  await expect(kidB.getByTestId("standby")).toBeVisible();
  await expect(kidB.locator('[data-option="clear"]')).toHaveCount(0);
  await kidA.locator('[data-option="clear"] input').check();
  await expect(kidA.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await expect(teacherPage.getByTestId("grid-student")).toHaveCount(1);
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-answered", "1");

  // the class changes: end, then start for 1-2
  await teacherPage.getByTestId("end-session").click();
  await teacherPage.locator('dialog[open] [data-testid="confirm-ok"]').click();
  await pickClass(teacherPage, "1:2");
  await teacherPage.getByTestId("start-session").click();
  await expect(teacherPage.getByTestId("session-class")).toHaveAttribute("data-class", "1:2");
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  await expect(sceneOf(kidB)).toHaveAttribute("data-scene-id", choice.id);
  await expect(kidA.getByTestId("standby")).toBeVisible();
  await expect(cell(teacherPage, b.id)).toHaveAttribute("data-state", "working");
  await expect(teacherPage.getByTestId("grid-student")).toHaveCount(1);
  // class 1-1's answer to the same scene is not counted for 1-2
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-answered", "0");
  await expect(teacherPage.getByTestId("grid-counts")).toHaveAttribute("data-answered", "0");
});

test("a 40-student update of the grid renders in under 16 ms in the browser", async ({ browser }) => {
  test.setTimeout(180_000);
  const { teacher, school, tag } = await makeSchool(0);
  const ids: string[] = [];
  for (let n = 1; n <= 40; n++) {
    const user = await createUser(e2eDb(), {
      role: "student",
      email: `g${n}-${tag}@test.example`,
      schoolId: school.id,
      name: `生徒 ${n}`,
      nameKana: `せいと ${n}`,
      student: { grade: 3, className: "4", number: n },
    });
    ids.push(user.id);
  }
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const teacherPage = await signedIn(browser, teacher.email!, { width: 1920, height: 1080 });
  // the grid measures each render, from its start to its DOM committed (features/play/ui/live-grid.tsx)
  await teacherPage.addInitScript(() => {
    const w = window as unknown as { gridTimes: number[] };
    w.gridTimes = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.gridTimes.push(e.duration);
    }).observe({ entryTypes: ["measure"] });
  });
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await pickClass(teacherPage, "3:4");
  await teacherPage.getByTestId("start-session").click();
  await expect(teacherPage.getByTestId("grid-student")).toHaveCount(40);
  const session = await e2eDb().guideSession.findFirstOrThrow({ where: { activityId: activity.id, endedAt: null } });
  const notify = () =>
    e2eDb().$executeRawUnsafe(
      "select pg_notify($1, $2)",
      LIVE_CHANNEL,
      livePayload(`activity:${activity.id}`, "counts"),
    );
  const times: number[] = [];
  // ten rounds, each changing all 40 cells at once: all join (working), all leave (offline), all back…
  for (let round = 0; round < 10; round++) {
    const seen = round % 2 === 0 ? new Date() : new Date(0);
    // emptied before the change is written: the stream's own periodic re-read may render it before the notification does
    await teacherPage.evaluate(() => ((window as unknown as { gridTimes: number[] }).gridTimes = []));
    await e2eDb().$executeRawUnsafe(
      `insert into guide_presence (session_id, user_id, seen_at) select $1::uuid, u, $2 from unnest($3::uuid[]) u on conflict (session_id, user_id) do update set seen_at = excluded.seen_at`,
      session.id,
      seen,
      ids,
    );
    await notify();
    const state = round % 2 === 0 ? "working" : "offline";
    await expect(teacherPage.locator(`[data-testid="grid-student"][data-state="${state}"]`)).toHaveCount(40);
    const measured = await teacherPage.evaluate(() => (window as unknown as { gridTimes: number[] }).gridTimes);
    expect(measured.length).toBeGreaterThan(0);
    times.push(Math.max(...measured));
  }
  const sorted = [...times].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `grid: 40-student update, render start to DOM committed (ms): ${times.map((t) => t.toFixed(1)).join(", ")}; median ${median.toFixed(1)}`,
  );
  // the median: a CI box shared by several builds deschedules the browser now and then
  expect(median).toBeLessThan(16);
});
