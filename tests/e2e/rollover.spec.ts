import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { rosterSet } from "../support/roster-fixture";
import { baseText, expectAccessible, signIn, signInAs } from "./helpers";

/** The result of an applied rollover names the new year, and its new cards download as one PDF. */
async function expectRolledAndPrinted(page: Page, year: number) {
  const result = page.getByTestId("rollover-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  expect(await baseText(result)).toContain(`${year}年度になりました`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("rollover-print").click()]);
  expect(download.suggestedFilename()).toBe("signin-sheets.pdf");
}

test("year-end rollover: a manager previews, confirms and applies; a student moves up, the graduate cannot sign in, the old year shows on the results", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { manager, school, students } = await makeSchool(3);
  const [first, graduate, second] = students as [(typeof students)[0], (typeof students)[0], (typeof students)[0]];
  // 1年1組1番, 3年1組2番 (the top grade), 2年1組3番
  await e2eDb().studentDetail.update({ where: { userId: graduate.id }, data: { grade: 3 } });
  await e2eDb().studentDetail.update({ where: { userId: second.id }, data: { grade: 2 } });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
    title: "前の年度の活動",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "two_step" },
    select: { id: true, position: true },
  });
  await createResponse(e2eDb(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: graduate.id,
    scenePosition: scene.position,
    answer: { first: "same", second: "sure", reason: "卒業生の理由" },
  });
  await createResponse(e2eDb(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: first.id,
    scenePosition: scene.position,
    answer: { first: "same", second: "sure", reason: "一年生の理由" },
  });
  const { currentYear } = await e2eDb().school.findUniqueOrThrow({
    where: { id: school.id },
    select: { currentYear: true },
  });

  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/manager/schools/${school.id}`);
  await page.getByTestId("open-rollover").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/manager/schools/${school.id}/rollover$`));
  expect(await baseText(page.getByTestId("rollover-current-year"))).toContain(`${currentYear}年度`);
  await expect(page.getByTestId("rollover-top-grade")).toHaveValue("3");
  const rows = page.getByTestId("rollover-table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  expect(await baseText(rows.nth(2))).toContain("卒業");
  await expectAccessible(page);

  // 1年1組 becomes 2年2組: the card of its student is reissued
  await page.getByTestId("rollover-to-1-1").fill("2");
  expect(await baseText(page.getByTestId("rollover-summary"))).toContain("カードの再発行 1人");
  // keyboard: the apply button, then the confirmation; cancelling changes nothing
  await page.getByTestId("rollover-apply").focus();
  await page.keyboard.press("Enter");
  await page.getByTestId("confirm-cancel").click();
  expect(
    (await e2eDb().school.findUniqueOrThrow({ where: { id: school.id }, select: { currentYear: true } })).currentYear,
  ).toBe(currentYear);
  await page.getByTestId("rollover-apply").focus();
  await page.keyboard.press("Enter");
  // one graduates: the school's name is typed to confirm it
  await page.getByTestId("confirm-typed").fill(school.name);
  await page.getByTestId("confirm-ok").click();
  // the new cards in one PDF
  await expectRolledAndPrinted(page, currentYear + 1);

  expect(
    await e2eDb().studentDetail.findUnique({ where: { userId: first.id }, select: { grade: true, className: true } }),
  ).toEqual({ grade: 2, className: "2" });
  expect(
    await e2eDb().studentDetail.findUnique({ where: { userId: second.id }, select: { grade: true, className: true } }),
  ).toEqual({ grade: 3, className: "1" });

  // the graduate: disabled, not deleted; neither the password nor the old card signs in
  const other = await browser.newPage();
  await other.goto("/signin");
  await signIn(other, graduate.email!, TEST_PASSWORD);
  await expect(other.getByTestId("signin-error")).toHaveAttribute("data-code", "userDisabled", { timeout: 60_000 });
  await other.goto(`/auth/auth-with-code?code=${graduate.code}`);
  await expect(other.getByTestId("code-confirm")).toHaveCount(0);
  await other.close();

  // the old year's activity is archived under its year; its results show the year; the graduate's answer is kept
  await page.goto(`/dashboard/manager/activities/${school.id}?tab=archived`);
  const row = page.locator(`tr[data-activity-id="${activity.id}"]`);
  expect(await baseText(row.getByTestId("activity-year"))).toBe(`${currentYear}年度`);
  await page.goto(`/dashboard/manager/activities/stats/${school.id}/${activity.id}`);
  expect(await baseText(page.getByTestId("results-year"))).toBe(`${currentYear}年度`);
  // each listed at the seat of that year: the student now in 2年2組 answered as 1年1組1番
  expect(await baseText(page.getByTestId("respondents").locator(`tr[data-student-id="${first.id}"] .seat-cell`))).toBe(
    "1年1組1番",
  );
  expect(
    await baseText(page.getByTestId("respondents").locator(`tr[data-student-id="${graduate.id}"] .seat-cell`)),
  ).toBe("3年1組2番");
  expect(await e2eDb().response.count({ where: { activityId: activity.id, userId: graduate.id } })).toBe(1);

  // applying again (another tab still showing the old year) changes nothing
  await page.goto(`/dashboard/manager/schools/${school.id}/rollover`);
  expect(await baseText(page.getByTestId("rollover-current-year"))).toContain(`${currentYear + 1}年度`);
  await expect(page.getByTestId("rollover-apply")).toBeDisabled();
  await expect(page.getByTestId("rollover-too-early")).toBeVisible();
});

test("at a 中学校 whose students are all in 1年 the rollover starts at 3年 (nobody graduates); a rollover that graduates says how many and needs the school's name typed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { manager, school, students } = await makeSchool(3);
  expect(school.name).toContain("中学校");
  const { currentYear } = await e2eDb().school.findUniqueOrThrow({
    where: { id: school.id },
    select: { currentYear: true },
  });
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/manager/schools/${school.id}/rollover`);
  // the first screen: 卒業する学年 = 3年, 1年1組 moves up, nobody graduates
  await expect(page.getByTestId("rollover-top-grade")).toHaveValue("3");
  const rows = page.getByTestId("rollover-table").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  expect(await baseText(rows.first())).toContain("2年");
  await expect(page.getByTestId("rollover-graduates")).toHaveCount(0);
  expect(await baseText(page.getByTestId("rollover-summary"))).toContain("卒業 0人");

  // the manager picks 1年 by mistake: 3 would graduate; the confirmation says so and needs the school's name
  await page.getByTestId("rollover-top-grade").selectOption("1");
  await expect(page.getByTestId("rollover-graduates")).toHaveCount(1);
  await page.getByTestId("rollover-apply").click();
  const dialog = page.getByTestId("confirm-dialog");
  expect(await baseText(dialog.getByTestId("rollover-confirm-graduates"))).toContain(`${students.length}人が卒業`);
  expect(await baseText(dialog.getByTestId("rollover-confirm-graduates"))).toContain(school.name);
  await expect(dialog.getByTestId("confirm-ok")).toBeDisabled();
  await dialog.getByTestId("confirm-typed").fill("テスト中学校");
  await expect(dialog.getByTestId("confirm-ok")).toBeDisabled();
  await expectAccessible(page);
  await dialog.getByTestId("confirm-cancel").click();
  expect(
    (await e2eDb().school.findUniqueOrThrow({ where: { id: school.id }, select: { currentYear: true } })).currentYear,
  ).toBe(currentYear);
  expect(
    await e2eDb().studentDetail.count({
      where: { userId: { in: students.map((s) => s.id) }, graduatedYear: null, grade: 1 },
    }),
  ).toBe(students.length);

  // back to 3年: nobody graduates, so no name to type; everyone moves up
  await page.getByTestId("rollover-top-grade").selectOption("3");
  await page.getByTestId("rollover-apply").click();
  await expect(dialog.getByTestId("confirm-typed")).toHaveCount(0);
  await dialog.getByTestId("confirm-ok").click();
  await expect(page.getByTestId("rollover-result")).toBeVisible({ timeout: 60_000 });
  expect(
    await e2eDb().studentDetail.count({
      where: { userId: { in: students.map((s) => s.id) }, graduatedYear: null, grade: 2 },
    }),
  ).toBe(students.length);
});

test("students page: graduates are not listed with the students at school but under 卒業生 with their year; the manager sees them apart too", async ({
  page,
  browser,
}) => {
  const { teacher, manager, school, students } = await makeSchool(2);
  const [current, graduate] = students as [(typeof students)[0], (typeof students)[0]];
  const { currentYear } = await e2eDb().school.findUniqueOrThrow({
    where: { id: school.id },
    select: { currentYear: true },
  });
  // as a rollover leaves a graduate: disabled, keeping the last seat (3年1組2番), graduated last year
  await e2eDb().studentDetail.update({
    where: { userId: graduate.id },
    data: { grade: 3, graduatedYear: currentYear - 1 },
  });
  await e2eDb().user.update({ where: { id: graduate.id }, data: { disabled: true } });

  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/students");
  const table = page.getByTestId("student-table");
  await expect(table.locator(`tr[data-student-id="${current.id}"]`)).toBeVisible();
  await expect(table.locator(`tr[data-student-id="${graduate.id}"]`)).toHaveCount(0);
  expect(await baseText(page.getByTestId("student-total"))).toContain("1");
  await expect(page.getByTestId("view-current")).toHaveAttribute("aria-current", "page");

  await page.getByTestId("view-graduates").click();
  await expect(page).toHaveURL(/view=graduates/);
  await expect(page.getByTestId("view-graduates")).toHaveAttribute("aria-current", "page");
  const row = table.locator(`tr[data-student-id="${graduate.id}"]`);
  await expect(row).toBeVisible();
  await expect(table.locator(`tr[data-student-id="${current.id}"]`)).toHaveCount(0);
  expect(await baseText(row.getByTestId("graduated-in"))).toBe(`${currentYear - 1}年度卒業`);
  await expectAccessible(page);
  // a search stays among the graduates
  await page.getByTestId("student-search").fill("2");
  await page.getByTestId("student-search").press("Enter");
  await expect(page).toHaveURL(/view=graduates/);
  await expect(row).toBeVisible();

  // back to the students at school, the search kept: the graduate's match is not among them
  await page.getByTestId("view-current").click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/students\?q=2$/);
  await expect(page.getByTestId("students-empty")).toBeVisible();

  const managerPage = await (await browser.newContext()).newPage();
  await signInAs(managerPage, manager.email!, TEST_PASSWORD);
  await managerPage.goto(`/dashboard/manager/schools/${school.id}`);
  expect(await baseText(managerPage.getByTestId("students-heading"))).toBe("生徒（1人）");
  expect(await baseText(managerPage.getByTestId("graduates-heading"))).toBe("卒業生（1人）");
  await expect(managerPage.getByTestId("graduates-table").locator(`tr[data-person-id="${graduate.id}"]`)).toBeVisible();
  await expect(managerPage.getByTestId("students-table").locator(`tr[data-person-id="${graduate.id}"]`)).toHaveCount(0);
  await managerPage.context().close();
});

/** Next year's set of the school as a zip (the roster page's format): the school by its name, one person per row of `people`. */
function nextYearZip(
  schoolName: string,
  people: { sourcedId: string; email: string | null; given: string; homeClass: string; number: number }[],
  classes: { sourcedId: string; title: string; grade: string }[],
) {
  const set = rosterSet([
    {
      sourcedId: randomUUID(),
      name: schoolName,
      classes,
      teachers: [],
      students: people.map((p) => ({
        sourcedId: p.sourcedId,
        family: "試験",
        given: p.given,
        kanaFamily: "シケン",
        kanaGiven: "ハナコ",
        email: p.email ?? undefined,
        homeClass: p.homeClass,
        number: p.number,
      })),
    },
  ]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rollover-set-")), "next-year.zip");
  writeFileSync(file, zipRosterPackage(set));
  return file;
}

test("year-end rollover with next year's roster set: a set with a problem shows it and cannot be applied; the checked set gives 組 and 番号, creates the newcomer and prints the new cards", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { manager, school, students } = await makeSchool(3);
  const [first, graduate, second] = students as [(typeof students)[0], (typeof students)[0], (typeof students)[0]];
  // 1年1組1番, 3年1組2番 (the top grade), 2年1組3番; each known to the roster by a sourcedId
  const ids = { first: randomUUID(), graduate: randomUUID(), second: randomUUID(), newcomer: randomUUID() };
  await e2eDb().user.update({ where: { id: first.id }, data: { sourcedId: ids.first } });
  await e2eDb().user.update({
    where: { id: graduate.id },
    data: { sourcedId: ids.graduate, student: { update: { grade: 3 } } },
  });
  await e2eDb().user.update({
    where: { id: second.id },
    data: { sourcedId: ids.second, student: { update: { grade: 2 } } },
  });
  const { currentYear } = await e2eDb().school.findUniqueOrThrow({
    where: { id: school.id },
    select: { currentYear: true },
  });
  const classes = {
    j1: { sourcedId: randomUUID(), title: "1年1組", grade: "J1" },
    j22: { sourcedId: randomUUID(), title: "2年2組", grade: "J2" },
    j31: { sourcedId: randomUUID(), title: "3年1組", grade: "J3" },
  };
  const people = [
    { sourcedId: ids.first, email: first.email, given: "花子1", homeClass: classes.j22.sourcedId, number: 7 },
    { sourcedId: ids.second, email: second.email, given: "花子3", homeClass: classes.j31.sourcedId, number: 3 },
    { sourcedId: ids.newcomer, email: null, given: "新入生", homeClass: classes.j1.sourcedId, number: 1 },
  ];

  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/manager/schools/${school.id}/rollover`);
  await expect(page.getByTestId("rollover-set")).toBeVisible();

  // the graduate listed in next year's set: the problem at its file, line and column; nothing to apply, nothing changed
  const withGraduate = nextYearZip(
    school.name,
    [
      ...people,
      { sourcedId: ids.graduate, email: graduate.email, given: "花子2", homeClass: classes.j31.sourcedId, number: 2 },
    ],
    Object.values(classes),
  );
  await page.getByTestId("rollover-set-file").setInputFiles(withGraduate);
  await page.getByTestId("rollover-set-check").click();
  const problem = page.getByTestId("roster-problem");
  await expect(problem).toHaveCount(1, { timeout: 60_000 });
  await expect(problem).toHaveAttribute("data-file", "users.csv");
  await expect(problem).toHaveAttribute("data-column", "sourcedId");
  expect(await baseText(problem)).toContain("卒業する生徒");
  await expect(page.getByTestId("rollover-apply")).toBeDisabled();
  expect(
    (await e2eDb().school.findUniqueOrThrow({ where: { id: school.id }, select: { currentYear: true } })).currentYear,
  ).toBe(currentYear);

  // the right set: each student's new 年・組・番号 and the newcomer in the preview
  await page.getByTestId("rollover-set-file").setInputFiles(nextYearZip(school.name, people, Object.values(classes)));
  await expect(page.getByTestId("rollover-apply")).toBeDisabled(); // a new set is checked before it can be applied
  await page.getByTestId("rollover-set-check").click();
  await expect(page.getByTestId("rollover-set-checked")).toBeVisible({ timeout: 60_000 });
  const preview = page.getByTestId("roster-preview-students");
  await preview.locator("summary").click();
  expect(await baseText(preview)).toContain("2年2組7番");
  expect(await baseText(preview)).toContain("1年1組1番");
  await expectAccessible(page);
  expect(await e2eDb().user.count({ where: { sourcedId: ids.newcomer } })).toBe(0); // the preview wrote nothing

  await page.getByTestId("rollover-apply").click();
  await page.getByTestId("confirm-typed").fill(school.name);
  await page.getByTestId("confirm-ok").click();
  await expectRolledAndPrinted(page, currentYear + 1);

  const seat = (id: string) =>
    e2eDb().studentDetail.findUniqueOrThrow({
      where: { userId: id },
      select: { grade: true, className: true, number: true, graduatedYear: true },
    });
  expect(await seat(first.id)).toEqual({ grade: 2, className: "2", number: 7, graduatedYear: null });
  expect(await seat(second.id)).toEqual({ grade: 3, className: "1", number: 3, graduatedYear: null });
  expect(await seat(graduate.id)).toMatchObject({ graduatedYear: currentYear });
  const newcomer = await e2eDb().user.findUniqueOrThrow({
    where: { sourcedId: ids.newcomer },
    select: { schoolId: true, student: { select: { grade: true, className: true, number: true } } },
  });
  expect(newcomer).toEqual({ schoolId: school.id, student: { grade: 1, className: "1", number: 1 } });
});
