import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { parseCsv } from "@/features/people/shared/csv";
import { BASE_URL } from "./config";
import { makeSchool, TEST_PASSWORD } from "./db";
import { expectAccessible, signIn, signInAs } from "./helpers";

/**
 * The sign-in log (README "The sign-in log"): a wrong then a right password show on the academy's log with method
 * and result, the CSV holds the same rows; another academy's manager and a teacher see none of them.
 */
test("a wrong then a right password show on the manager's log, in the CSV, and on the teacher's own page", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const a = await makeSchool(0);
  const b = await makeSchool(0);
  const userAgent = `SigninLogE2E/${a.tag}`;

  const teacherContext = await browser.newContext({ userAgent });
  const teacher = await teacherContext.newPage();
  await teacher.goto("/signin");
  await signIn(teacher, a.teacher.email!, "not-the-password");
  await expect(teacher.getByTestId("signin-error")).toHaveAttribute("data-code", "wrongPassword", { timeout: 60_000 });
  await signIn(teacher, a.teacher.email!, TEST_PASSWORD);
  await expect(teacher).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 60_000 });

  // the teacher's own sign-ins: the failure and the success, newest first
  await teacher.goto("/dashboard/teacher/signins");
  const own = teacher.getByTestId("signin-log-row");
  await expect(own).toHaveCount(2);
  await expect(own.nth(0)).toHaveAttribute("data-result", "success");
  await expect(own.nth(1)).toHaveAttribute("data-result", "failure");
  await expect(own.nth(1)).toContainText("パスワードが違う");
  await expect(own.nth(0)).toContainText(userAgent);
  await expectAccessible(teacher);
  // the manager's log is not the teacher's: sent to their own home
  await teacher.goto("/dashboard/manager/signin-log");
  await expect(teacher).toHaveURL(/\/dashboard\/teacher\/home$/);
  expect((await teacher.request.get("/api/v1/signin-log/export")).status()).toBe(403);
  await teacherContext.close();

  const managerContext = await browser.newContext({ acceptDownloads: true });
  const manager = await managerContext.newPage();
  await signInAs(manager, a.manager.email!, TEST_PASSWORD);
  await manager.goto("/dashboard/manager/signin-log");
  await manager.getByTestId("signin-log-search").fill(a.teacher.email!);
  await manager.getByTestId("signin-log-method").selectOption("password");
  await manager.getByTestId("signin-log-filter").click();
  await expect(manager).toHaveURL(/method=password/);
  const rows = manager.getByTestId("signin-log-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("パスワード");
  await expect(rows.nth(0)).toContainText("成功");
  await expect(rows.nth(1)).toContainText("失敗");
  await expect(rows.nth(1)).toContainText(a.teacher.email!);
  await expect(rows.nth(1).locator("time")).toHaveAttribute("datetime", /Z$/);
  await manager.getByTestId("signin-log-result").selectOption("failure");
  await manager.getByTestId("signin-log-filter").click();
  await expect(rows).toHaveCount(1);
  await expectAccessible(manager);

  const downloading = manager.waitForEvent("download");
  await manager.getByTestId("signin-log-export").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^signin-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...records] = parseCsv(bytes.subarray(3).toString("utf8")).map((r) => r.fields);
  expect(header?.[0]).toBe("日時（日本時間）");
  expect(records).toEqual([
    expect.arrayContaining([a.teacher.email, "password", "failure", "wrongPassword", userAgent]),
  ]);
  expect(bytes.toString("utf8")).not.toContain("not-the-password");
  await managerContext.close();

  // another academy's manager sees none of it, on the page or in the CSV
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signInAs(other, b.manager.email!, TEST_PASSWORD);
  await other.goto(`/dashboard/manager/signin-log?q=${encodeURIComponent(a.teacher.email!)}`);
  await expect(other.getByTestId("signin-log-empty")).toBeVisible();
  const csv = await other.request.get(`${BASE_URL}/api/v1/signin-log/export?q=${encodeURIComponent(a.tag)}`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).not.toContain(a.teacher.email!);
  await otherContext.close();
});
