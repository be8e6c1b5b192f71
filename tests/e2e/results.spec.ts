import { expect, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { baseText, signInAs } from "./helpers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";

/**
 * Factory-made answers with counts known in advance: 36 students in groups A
 * and B answer the first two-step scene so that every first × second cell
 * is non-zero; the single-choice scene is answered by the first 30.
 */
const FIRSTS = ["more", "same", "less"];
const SECONDS = ["sure", "maybe", "unsure"];

async function seedResults() {
  const made = await makeSchool(36);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: made.school.id,
    mode: "self",
  });
  const scenes = await scenesOf(activity.id);
  const expected: Record<string, Record<string, Record<string, number>>> = { all: {}, A: {}, B: {} };
  const choice: Record<string, number> = {};
  for (const [i, s] of made.students.entries()) {
    const group = (await e2eDb().studentDetail.findUniqueOrThrow({ where: { userId: s.id } })).counterbalanceGroup!;
    const first = FIRSTS[i % 3]!;
    const second = SECONDS[Math.floor(i / 3) % 3]!;
    for (const key of ["all", group])
      (expected[key]![first] ??= {})[second] = (expected[key]![first]![second] ?? 0) + 1;
    await createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: scenes[1]!.id,
      userId: s.id,
      scenePosition: 1,
      counterbalanceGroup: group,
      answer: { first, second, reason: `理由${i + 1}` },
    });
    if (i < 30) {
      const c = i % 5 === 0 ? "cloudy" : "clear";
      choice[c] = (choice[c] ?? 0) + 1;
      await createResponse(e2eDb(), {
        activityId: activity.id,
        sceneId: scenes[2]!.id,
        userId: s.id,
        scenePosition: 2,
        counterbalanceGroup: group,
        answer: { choice: c },
      });
    }
  }
  return { ...made, activity, scenes, expected, choice };
}

test("stats: the cross-table shows exactly the counts (equal to SQL), a cell lists its reasons, the group filter changes the numbers, the CSV agrees", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { teacher, activity, scenes, expected, choice, students } = await seedResults();
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  const overview = page.getByTestId("overview");
  await expect(overview.locator('[data-key="assigned"]')).toHaveAttribute("data-count", "36");
  await expect(overview.locator('[data-key="started"]')).toHaveAttribute("data-count", "36");

  const cross = page.locator(`[data-scene-id="${scenes[1]!.id}"]`).getByTestId("cross-table");
  const sql = await e2eDb().$queryRaw<{ first: string; second: string; n: number }[]>`
    select answer->>'first' as first, answer->>'second' as second, count(*)::int as n from responses where scene_id = ${scenes[1]!.id}::uuid group by 1, 2`;
  for (const f of FIRSTS) {
    for (const s of SECONDS) {
      const want = expected.all![f]![s]!;
      expect(want).toBeGreaterThan(0);
      expect(sql.find((r) => r.first === f && r.second === s)?.n).toBe(want);
      await expect(cross.locator(`[data-cell="${f}:${s}"]`)).toHaveAttribute("data-count", String(want));
    }
  }
  // the single-choice distribution, in the chart's table
  const chart = page.locator(`[data-scene-id="${scenes[2]!.id}"]`);
  await expect(chart).toHaveAttribute("data-answered", "30");
  await expect(chart.getByTestId("chart-table").locator('[data-option="clear"]')).toHaveAttribute(
    "data-count",
    String(choice.clear),
  );
  await expect(chart.getByTestId("chart-table").locator('[data-option="cloudy"]')).toHaveAttribute(
    "data-count",
    String(choice.cloudy),
  );

  // a cell lists the reasons behind it, with names; names can be hidden for projection
  await cross.locator('[data-cell="same:maybe"] button').click();
  const reasons = page.getByTestId("cell-reasons");
  await expect(reasons).toHaveAttribute("data-cell", "same:maybe");
  const wanted = students.flatMap((s, i) =>
    FIRSTS[i % 3] === "same" && SECONDS[Math.floor(i / 3) % 3] === "maybe" ? [`理由${i + 1}`] : [],
  );
  await expect(reasons.locator("li")).toHaveCount(wanted.length);
  for (const r of wanted) await expect(reasons).toContainText(r);
  await expect(reasons.locator(".who").first()).toBeVisible();
  await page.getByTestId("hide-names").click();
  await expect(reasons.locator(".who").first()).toBeHidden();

  // group B only
  await page.getByTestId("filter-group").selectOption("B");
  await page.getByTestId("apply-filter").click();
  await expect(page).toHaveURL(/group=B/);
  await expect(overview.locator('[data-key="assigned"]')).toHaveAttribute("data-count", "18");
  for (const f of FIRSTS)
    for (const s of SECONDS)
      await expect(cross.locator(`[data-cell="${f}:${s}"]`)).toHaveAttribute(
        "data-count",
        String(expected.B![f]?.[s] ?? 0),
      );

  // the CSV of what is on screen (group B): same totals
  const csv = await (await page.request.get(`/api/v1/exports/${activity.id}/results?group=B`)).text();
  expect(csv.startsWith("\uFEFF")).toBe(true);
  expect(csv.includes("\r\n")).toBe(true);
  const lines = csv
    .slice(1)
    .trim()
    .split("\r\n")
    .map((l) => l.split(","));
  // (headers and labels in the display language: the staff default, plain Japanese or furigana as plain text)
  const crossRows = lines.filter((l) => l[0] === "2" && l[3] !== "回答した人数");
  expect(crossRows.reduce((sum, l) => sum + Number(l[5]), 0)).toBe(18);
  expect(lines.find((l) => l[1] === "全体" && l[3] === "対象の生徒")?.[5]).toBe("18");

  // the research export: one row per response (streamed), pseudonymous on request
  const research = await (await page.request.get(`/api/v1/exports/${activity.id}/responses`)).text();
  const rows = research.slice(1).trim().split("\r\n");
  expect(rows[0]).toContain("生徒ID");
  expect(rows.length - 1).toBe(await e2eDb().response.count({ where: { activityId: activity.id } }));
  expect(research).toContain(students[0]!.id);
  const pseudo = await (await page.request.get(`/api/v1/exports/${activity.id}/responses?pseudonymous=1`)).text();
  expect(pseudo).not.toContain(students[0]!.id);
  expect(pseudo).toMatch(/p_[A-Za-z0-9_-]{16}/);
  expect(await e2eDb().auditLog.count({ where: { actorId: teacher.id, action: { startsWith: "export." } } })).toBe(3);
});

test("response view and portfolio: one student's answers, previous/next student, newest activity first", async ({
  page,
}) => {
  const { teacher, school, students } = await makeSchool(2);
  const older = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
    title: "前の活動",
  });
  const newer = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
    title: "新しい活動",
  });
  for (const a of [older, newer]) {
    const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: a.id, position: 2 } });
    for (const s of students)
      await createResponse(e2eDb(), {
        activityId: a.id,
        sceneId: scene.id,
        userId: s.id,
        scenePosition: 2,
        answer: { choice: "clear" },
      });
  }
  await e2eDb().response.updateMany({
    where: { activityId: older.id },
    data: { updatedAt: new Date("2026-04-10T01:00:00Z") },
  });
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/teacher/activities/response/${newer.id}/${students[0]!.id}`);
  await expect(page.getByTestId("answer-review").locator('[data-answered="true"]')).toHaveCount(1);
  await page.getByTestId("next-student").click();
  await expect(page).toHaveURL(new RegExp(`${students[1]!.id}$`));

  await page.goto("/dashboard/teacher/home");
  await page.getByTestId("portfolio-link").click();
  const row = page.getByTestId("portfolio-table").locator(`tr[data-student-id="${students[0]!.id}"]`);
  await expect(row).toHaveAttribute("data-activities", "2");
  expect(await baseText(row.getByTestId("last-title"))).toBe("新しい活動");
  await page.getByTestId("portfolio-table").locator(`tr[data-student-id="${students[0]!.id}"] a`).click();
  const titles = page.locator(".portfolio-activity > h2");
  await expect(titles).toHaveCount(2);
  expect(await baseText(titles.first())).toBe("新しい活動");
  expect(await baseText(titles.last())).toBe("前の活動");
});

test("results of another school: no access on every route, and nothing in exports", async ({ page }) => {
  const mine = await makeSchool(1);
  const theirs = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: theirs.school.id,
    mode: "self",
  });
  await signInAs(page, mine.teacher.email!, TEST_PASSWORD);
  for (const path of [
    `/dashboard/teacher/activities/stats/${activity.id}`,
    `/dashboard/teacher/activities/response/${activity.id}/${theirs.students[0]!.id}`,
    `/dashboard/teacher/portfolio/${theirs.students[0]!.id}`,
  ]) {
    await page.goto(path);
    await expect(page.getByTestId("error-page")).toBeVisible();
    expect(await page.content()).not.toContain(theirs.school.name);
  }
  for (const kind of ["results", "responses"])
    expect((await page.request.get(`/api/v1/exports/${activity.id}/${kind}`)).status()).toBe(404);
  // a manager of another academy, naming the school
  await page.context().clearCookies();
  await signInAs(page, mine.manager.email!, TEST_PASSWORD);
  for (const path of [
    `/dashboard/manager/activities/stats/${theirs.school.id}/${activity.id}`,
    `/dashboard/manager/activities/response/${theirs.school.id}/${activity.id}/${theirs.students[0]!.id}`,
    `/dashboard/manager/activities/guide/${theirs.school.id}/${activity.id}`,
  ]) {
    await page.goto(path);
    await expect(page.getByTestId("error-page")).toBeVisible();
    expect(await page.content()).not.toContain(theirs.school.name);
  }
  expect((await page.request.get(`/api/v1/exports/${activity.id}/responses?school=${theirs.school.id}`)).status()).toBe(
    404,
  );
});
