import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { e2eDb, keyedDissolve, makeSchool, sessionCookieFor, TEST_PASSWORD } from "./db";
import { chooseLanguage, expectAccessible, signInAs } from "./helpers";

/**
 * Learning records (features/lti/README.md "Learning records") in the running server: the manager sets the academy's
 * LRS on the schools screen (an LRS stub this test starts, real HTTP), a student's answer saved through the answer
 * API reaches the stub as xAPI statements naming the student by sourcedId only, the card counts them as sent, and
 * the teacher downloads the activity's statements as JSON lines.
 */
async function lrsStub() {
  const statements: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const got = JSON.parse(body) as Record<string, unknown>[];
      statements.push(...got);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(got.map((s) => s.id)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { statements, endpoint: `http://127.0.0.1:${port}/xapi`, close: () => server.close() };
}

test("the manager sets the LRS on the schools screen; a student's answer reaches it as xAPI statements; the card counts them; the teacher downloads them as JSON lines", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const lrs = await lrsStub();
  try {
    const { manager, teacher, school, students } = await makeSchool(1);
    const sourcedId = randomUUID();
    await e2eDb().user.update({ where: { id: students[0]!.id }, data: { sourcedId } });
    const { activity, choice } = await keyedDissolve(school.id);
    await e2eDb().activity.update({ where: { id: activity.id }, data: { mode: "self" } });

    await page.setViewportSize({ width: 1280, height: 720 });
    await signInAs(page, manager.email!, TEST_PASSWORD);
    await page.goto("/dashboard/manager/schools");
    await expect(page.getByTestId("lrs-value")).toHaveAttribute("data-endpoint", "");
    await page.getByTestId("edit-lrs").click();
    const dialog = page.getByTestId("edit-lrs-dialog");
    await dialog.locator('input[name="endpoint"]').fill("http://lrs.example.jp/xapi"); // not HTTPS: refused
    await dialog.locator('input[name="key"]').fill("school-key");
    await dialog.locator('input[name="secret"]').fill("school-secret");
    await page.getByTestId("edit-lrs-save").click();
    await expect(page.getByTestId("edit-lrs-error")).toBeVisible();
    await dialog.locator('input[name="endpoint"]').fill(lrs.endpoint);
    await page.getByTestId("edit-lrs-save").click();
    await expect(page.getByTestId("lrs-value")).toHaveAttribute("data-endpoint", lrs.endpoint);

    const cookie = await sessionCookieFor(students[0]!.id);
    const saved = await request.post("/api/v1/answers", {
      headers: { cookie, origin: BASE_URL },
      data: {
        activityId: activity.id,
        sceneId: choice.id,
        answer: { choice: "clear" },
        clientRevision: 1,
        idempotencyKey: randomUUID(),
        mode: "self",
      },
    });
    expect(saved.status()).toBe(200);
    await expect.poll(() => lrs.statements.length, { timeout: 60_000 }).toBe(2);
    expect(lrs.statements.map((s) => (s.verb as { id: string }).id)).toEqual([
      "http://adlnet.gov/expapi/verbs/initialized",
      "http://adlnet.gov/expapi/verbs/answered",
    ]);
    for (const s of lrs.statements)
      expect((s.actor as { account: unknown }).account).toMatchObject({ name: sourcedId });
    expect(lrs.statements[1]!.result).toMatchObject({ success: true, score: { raw: 1, max: 1, scaled: 1 } });
    expect(JSON.stringify(lrs.statements)).not.toContain(students[0]!.name!);

    await expect
      .poll(async () => {
        await page.reload();
        return page.getByTestId("lrs-counts").getAttribute("data-sent");
      })
      .toBe("2");
    await expectAccessible(page);
    await page.getByTestId("lrs").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/xapi-lrs-1280-ja.png" });
    for (const lang of ["ja-ruby", "ja-kana"] as const) {
      await chooseLanguage(page, lang);
      await page.getByTestId("lrs").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/xapi-lrs-1280-${lang}.png` });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("lrs").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/xapi-lrs-phone-ja-kana.png" });

    const teacherCookie = await sessionCookieFor(teacher.id, "teacher");
    const lines = await request.get(`/api/v1/exports/${activity.id}/xapi`, { headers: { cookie: teacherCookie } });
    expect(lines.status()).toBe(200);
    expect(lines.headers()["content-type"]).toMatch(/^application\/x-ndjson/);
    const downloaded = (await lines.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string });
    // the same statements the LRS received; statements made in the same instant come in id order in the download
    const ids = (list: Record<string, unknown>[]) => list.map((s) => String(s.id)).sort();
    expect(ids(downloaded)).toEqual(ids(lrs.statements));
    expect(downloaded).toHaveLength(2);
  } finally {
    lrs.close();
  }
});
