/**
 * Probing ids and paths (docs/security.md threat model: a curious student or a teacher of
 * another school): every "not found or no access" page is a real 404 in the user's own
 * display language, never a 200 that streams a not-found body (which a crawler, a cache
 * or a script reads as "this exists"), and never a 5xx. Every dynamic page route of
 * tests/e2e/routes.ts is asked by its own role with an unknown id, another academy's ids
 * and malformed ids; unknown paths inside and outside the areas likewise.
 */
import { randomUUID } from "node:crypto";
import { type Browser, expect, test } from "@playwright/test";
import type { Role } from "@/platform/auth/roles";
import { createAcademy, createUser, uniqueTag } from "../../prisma/seed/factories";
import { BASE_URL } from "../e2e/config";
import { e2eDb, TEST_PASSWORD } from "../e2e/db";
import { cookieOf } from "../e2e/cookies";
import { activityOf, fillIds, type Ids, seedMatrixSchool, send } from "../e2e/matrix-lib";
import { ROUTES } from "../e2e/routes";

/** The not-found message as each display language's reader sees it (tags stripped, ruby readings dropped). */
const NOT_FOUND_TEXT = {
  ja: "ページが見つからないか、見る権限がありません。",
  "ja-kana": "ページが みつからないか、みる けんげんが ありません。",
} as const;
const LANGUAGE_OF: Record<Role, keyof typeof NOT_FOUND_TEXT> = { student: "ja-kana", teacher: "ja", manager: "ja" };

let own: Ids;
let foreignCanary = "";
let foreign: Ids;
const cookies = {} as Record<Role, string>;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const academy = await createAcademy(e2eDb(), { name: `状態学園${tag}`, nameKana: "じょうたいがくえん" });
  const other = await createAcademy(e2eDb(), { name: `他状態学園${tag}`, nameKana: "たじょうたいがくえん" });
  const mine = await seedMatrixSchool(academy.id, `STOWN${tag}`, "sc-own", tag);
  own = mine.ids;
  foreignCanary = `STFOR${tag}`;
  foreign = (await seedMatrixSchool(other.id, foreignCanary, "sc-for", tag)).ids;
  const manager = await createUser(e2eDb(), {
    role: "manager",
    email: `sc-m-${tag}@test.example`,
    password: TEST_PASSWORD,
    academyId: academy.id,
    name: "状態 管理",
  });
  const lang = (role: Role) => `; manabiya-lang=${LANGUAGE_OF[role]}`;
  cookies.student = (await cookieOf(browser, mine.student.email!)) + lang("student");
  cookies.teacher = (await cookieOf(browser, mine.teacher.email!)) + lang("teacher");
  cookies.manager = (await cookieOf(browser, manager.email!)) + lang("manager");
});

const visibleText = (html: string) =>
  html
    .replace(/<rt>[^<]*<\/rt>/g, "")
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, "")
    .replace(/<[^>]+>/g, "");

/** Plain HTTP: the status, and no page content beyond the not-found page (a 5xx or a 200 fails). */
async function expectNotFound(role: Role, pathname: string) {
  const reply = await send(cookies[role], pathname);
  expect(reply.status, `${role} → ${pathname}`).toBe(404);
  expect(reply.body.includes(foreignCanary), `${role} → ${pathname}: another academy's data`).toBe(false);
}

/**
 * What a person sees there in a browser: the not-found page in their display language.
 * (Next sends a not-found raised by a page as an empty document that its script fills in;
 * unknown paths arrive rendered. Either way the person reads the same page.)
 */
async function expectNotFoundPage(browser: Browser, role: Role, pathname: string) {
  const context = await browser.newContext();
  await context.addCookies(
    cookies[role].split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: BASE_URL };
    }),
  );
  const page = await context.newPage();
  const response = await page.goto(pathname);
  expect(response?.status(), `${role} → ${pathname} in a browser`).toBe(404);
  await expect(page.getByTestId("error-page")).toContainText(NOT_FOUND_TEXT[LANGUAGE_OF[role]], { timeout: 20_000 });
  await expect(page.getByRole("link", { name: /ホーム|ほーむ/ })).toBeVisible();
  await context.close();
}

const DYNAMIC = ROUTES.filter((r) => r.pattern.includes("[") && r.area !== "public");

test("sanity: each dynamic page answers 200 to its own role with the own school's ids", async () => {
  test.setTimeout(120_000);
  for (const route of DYNAMIC) {
    const pathname = fillIds(route.pattern, {
      schoolId: own.schoolId,
      activityId: own[activityOf(route.pattern)],
      studentId: own.studentId,
    });
    expect((await send(cookies[route.area as Role], pathname)).status, pathname).toBe(200);
  }
});

for (const route of DYNAMIC) {
  test(`real 404 in the user's language: ${route.pattern} with unknown, foreign and malformed ids`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const role = route.area as Role;
    const pick = (ids: Ids) => ({
      schoolId: ids.schoolId,
      activityId: ids[activityOf(route.pattern)],
      studentId: ids.studentId,
    });
    const mine = pick(own);
    const variants = [
      { ...mine, activityId: randomUUID(), studentId: randomUUID() },
      pick(foreign),
      { ...mine, activityId: "not-a-uuid", studentId: "1' or '1'='1" },
      { ...mine, activityId: "%E3%81%82", studentId: "%00" },
    ];
    // the ids one at a time, so each check of a page is reached (a valid activity with a foreign student, …)
    if (route.pattern.includes("[studentId]"))
      variants.push({ ...mine, studentId: foreign.studentId }, { ...mine, studentId: randomUUID() });
    if (route.pattern.includes("[schoolId]"))
      variants.push(
        { ...mine, schoolId: randomUUID() },
        { ...mine, schoolId: foreign.schoolId },
        { ...mine, schoolId: "not-a-uuid" },
      );
    const ownPath = fillIds(route.pattern, mine);
    const paths = [...new Set(variants.map((ids) => fillIds(route.pattern, ids)))].filter((p) => p !== ownPath);
    expect(paths.length).toBeGreaterThanOrEqual(3);
    for (const pathname of paths) await expectNotFound(role, pathname);
    await expectNotFoundPage(browser, role, paths[0]!);
  });
}

test("unknown paths are a real 404 in the user's language, inside and outside the areas", async () => {
  for (const role of ["student", "teacher", "manager"] as const) {
    for (const pathname of [
      `/dashboard/${role}/no-such-page`,
      `/dashboard/${role}/activities/no/such/page`,
      "/no-such-page",
      "/dashboard/nobody/home",
    ]) {
      const reply = await send(cookies[role], pathname);
      expect(reply.status, `${role} → ${pathname}`).toBe(404);
      expect(visibleText(reply.body), `${role} → ${pathname}`).toContain(NOT_FOUND_TEXT[LANGUAGE_OF[role]]);
    }
  }
  const signedOut = await send("manabiya-lang=ja", "/no-such-page");
  expect(signedOut.status).toBe(404);
  expect(visibleText(signedOut.body)).toContain(NOT_FOUND_TEXT.ja);
});
