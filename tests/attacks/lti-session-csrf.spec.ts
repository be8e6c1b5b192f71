import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { BASE_URL } from "../e2e/config";
import { e2eDb, makeSchool } from "../e2e/db";
import { type LtiPlatformEmulator, startLtiPlatform } from "../support/lti-platform";
import { giveSourcedId, INSTRUCTOR, registerPlatform } from "../support/lti-setup";

/**
 * CSRF against an LTI session (docs/security.md "CSRF"): a launch's session cookie is SameSite=None (it must reach
 * us inside the portal's cross-site iframe), so another site's form post carries it. Each state-changing endpoint
 * must refuse such a post by its Origin. The attacker's page is a real page of another site (127.0.0.1, the app
 * being on localhost) that form-posts to us at once, in Chromium, after the victim was launched in a new window.
 */

let platform: LtiPlatformEmulator;
let attacker: Server;
let attackerUrl = "";

const escape = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

test.beforeEach(async () => {
  platform = await startLtiPlatform({ toolUrl: BASE_URL });
  // GET /post?action=…&fields=<json>&enctype=…: a page that posts those fields to `action` at once
  attacker = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    const fields = JSON.parse(q.get("fields") ?? "{}") as Record<string, string>;
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
      .join("");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><body><form method="post" enctype="${escape(q.get("enctype") ?? "application/x-www-form-urlencoded")}" action="${escape(q.get("action") ?? "")}">${inputs}</form><script>document.forms[0].submit()</script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
test.afterEach(async () => {
  await platform.close();
  await new Promise((resolve) => attacker.close(resolve));
});

const register = (academyId: string) => registerPlatform(e2eDb(), platform, academyId);
const rosterId = (userId: string) => giveSourcedId(e2eDb(), userId);

/**
 * The attacker's page posts `fields` to `path` of ours: the response the browser got, after checking that the
 * victim's session cookie went with the post (SameSite does not stop it).
 */
async function crossSitePost(page: Page, path: string, fields: Record<string, string>, enctype?: string) {
  const answered = page.waitForResponse(`${BASE_URL}${path}`);
  const q = new URLSearchParams({ action: `${BASE_URL}${path}`, fields: JSON.stringify(fields) });
  if (enctype) q.set("enctype", enctype);
  await page.goto(`${attackerUrl}/post?${q}`);
  const response = await answered;
  const sent = await response.request().allHeaders();
  expect(sent.origin).toBe(attackerUrl);
  expect(sent.cookie ?? "").toContain("manabiya.session=");
  return response;
}

test("another site's form posts carry an LTI session's cookie and are refused by their Origin: the sheets route handler and the deep linking pick", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { academy, school, teacher, students } = await makeSchool(1);
  await register(academy.id);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const hint = platform.prepare({
    sub: await rosterId(teacher.id),
    deploymentId: platform.deploymentId,
    targetLinkUri: `${BASE_URL}/lti/deep-link`,
    roles: [INSTRUCTOR],
    deepLinking: {},
  });
  await page.goto(platform.startUrl(hint));
  await expect(page).toHaveURL(/\/lti\/deep-link\?request=[\w-]{43}$/);
  const pickerUrl = page.url();
  const request = new URL(pickerUrl).searchParams.get("request")!;

  // printing sign-in sheets issues codes: refused before it looks at the session
  const codes = () => e2eDb().signinCode.count({ where: { userId: students[0]!.id } });
  const codesBefore = await codes();
  const sheets = await crossSitePost(page, "/api/students/sheets", { ids: students[0]!.id });
  expect(sheets.status()).toBe(403);
  expect(await codes()).toBe(codesBefore);

  // the teacher's waiting deep linking request, picked by another site: refused, nothing sent to the portal
  const pick = await crossSitePost(page, "/api/lti/deep-link", { request, activity: activity.id });
  expect(pick.status()).toBe(303);
  // the refusal page, with a frame pass for the session's portal (platform/security/frame-pass.ts)
  await expect(page).toHaveURL(new RegExp(`^${BASE_URL}/lti/refused\\?reason=pickExpired(&f=[\\w.-]+)?$`));
  expect(platform.returned).toEqual([]);
  expect(await e2eDb().ltiDeepLinkRequest.count({ where: { userId: teacher.id } })).toBe(1);
  // and it is still the teacher's to pick
  await page.goto(pickerUrl);
  await expect(page.locator(`[data-testid="deep-link-choice"][data-activity="${activity.id}"]`)).toBeVisible();
});

test("another site's post to the answer API carries a launched student's cookie and is refused (403), nothing stored", async ({
  page,
}) => {
  const { academy, school, students } = await makeSchool(1);
  await register(academy.id);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "free_text" },
    select: { id: true },
  });
  const hint = platform.prepare({
    sub: await rosterId(students[0]!.id),
    deploymentId: platform.deploymentId,
    targetLinkUri: `${BASE_URL}/lti/activities/${activity.id}`,
  });
  await page.goto(platform.startUrl(hint));
  await expect(page).toHaveURL(`/dashboard/student/activities/solo/${activity.id}`);

  // a text/plain form whose body reads as JSON: `{"activityId":…,"x":"=…"}`
  const json = JSON.stringify({ activityId: activity.id, sceneId: scene.id, answer: { text: "forged" }, x: "" });
  const answer = await crossSitePost(page, "/api/v1/answers", { [json.slice(0, -2)]: '"}' }, "text/plain");
  expect(answer.status()).toBe(403);
  expect(await e2eDb().response.count({ where: { userId: students[0]!.id } })).toBe(0);
});
