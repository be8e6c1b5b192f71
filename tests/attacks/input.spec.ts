import { type APIRequestContext, expect, request as newRequest, test } from "@playwright/test";
import { createUser } from "../../prisma/seed/factories";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { BASE_URL } from "../e2e/config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "../e2e/db";
import { signInAs, storageStateOf } from "../e2e/helpers";

/**
 * Bad input gets a clear answer and changes nothing: every id in a
 * path, every search box and filter, with bytes no database column holds (NUL,
 * a lone surrogate as UTF-8 bytes or as a JS string, an overlong encoding),
 * LIKE wildcards, quotes and 10 KB, answers as for an unknown id: a page with
 * status 200 or 404 (or a 4xx code from a route handler), never a 5xx and
 * never the error page of a failed render.
 */
const JUNK = [
  "%00",
  "a%00b",
  "%ED%A0%80",
  "\uD800",
  "%C0%80",
  "%FF%FE",
  "'",
  "''--",
  "%25",
  "_",
  "%5C",
  "%22%3E%3Cscript%3E",
  "..%2F..%2F",
  "a".repeat(10_000),
  "00000000-0000-0000-0000-00000000000%00",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
];
const A = DEMO_IDS.scienceActivity;
const S = DEMO_IDS.school1;
const STUDENT = "00000000-0000-4000-8000-000000000000";

/** Paths with `{x}` where a junk value goes (once per junk value). */
const ROUTES: Record<"teacher" | "manager" | "student", string[]> = {
  teacher: [
    "/dashboard/teacher/students?q={x}",
    "/dashboard/teacher/students?class={x}",
    "/dashboard/teacher/students?page={x}&sort={x}&dir={x}",
    "/dashboard/teacher/portfolio?q={x}",
    "/dashboard/teacher/portfolio?sort={x}&dir={x}",
    "/dashboard/teacher/portfolio/{x}",
    "/dashboard/teacher/activities?tab={x}",
    "/dashboard/teacher/activities/edit/{x}",
    "/dashboard/teacher/activities/preview/{x}",
    "/dashboard/teacher/activities/solo/{x}",
    "/dashboard/teacher/activities/guide/{x}",
    "/dashboard/teacher/activities/stats/{x}",
    `/dashboard/teacher/activities/stats/${A}?group={x}&class={x}&mode={x}`,
    `/dashboard/teacher/activities/response/{x}/${STUDENT}`,
    `/dashboard/teacher/activities/response/${A}/{x}`,
    "/api/v1/exports/{x}/results",
    `/api/v1/exports/${A}/results?group={x}&class={x}&mode={x}`,
    "/api/v1/exports/{x}/responses",
    `/api/v1/exports/${A}/responses?pseudonymous={x}&school={x}`,
    "/api/v1/live/{x}/state",
    `/api/v1/live/${A}/state?school={x}`,
    "/api/students/sheets?class={x}",
    "/api/students/sheets?ids={x}",
  ],
  manager: [
    "/dashboard/manager/activities/{x}",
    `/dashboard/manager/activities/${S}?tab={x}`,
    "/dashboard/manager/activities/guide/{x}/{x}",
    `/dashboard/manager/activities/guide/${S}/{x}`,
    "/dashboard/manager/activities/preview/{x}/{x}",
    `/dashboard/manager/activities/preview/${S}/{x}`,
    "/dashboard/manager/activities/stats/{x}/{x}",
    `/dashboard/manager/activities/stats/${S}/{x}`,
    `/dashboard/manager/activities/stats/${S}/${A}?group={x}&class={x}&mode={x}`,
    `/dashboard/manager/activities/response/${S}/${A}/{x}`,
    `/dashboard/manager/activities/response/${S}/{x}/${STUDENT}`,
    "/dashboard/manager/activities/response/{x}/{x}/{x}",
    `/api/v1/exports/${A}/results?school={x}`,
    `/api/v1/exports/${A}/responses?school={x}`,
    `/api/v1/live/${A}/state?school={x}`,
  ],
  student: [
    "/dashboard/student/activities/solo/{x}",
    "/dashboard/student/activities/session/{x}",
    "/dashboard/student/activities/response/{x}",
    "/api/v1/live/{x}/state",
    "/api/v1/exports/{x}/results",
    "/dashboard/student/home?{x}={x}",
  ],
};

/** What a failed render leaves in the HTML: the area's error boundary, or an error digest other than Next's own 404/redirect. */
function renderFailure(body: string): string | null {
  if (body.includes('data-testid="dashboard-error"')) return "dashboard-error";
  for (const m of body.matchAll(/(?:data-dgst=|\\?"digest\\?":\\?)"([^"\\]*)/g)) {
    if (!/^NEXT_(HTTP_ERROR_FALLBACK|REDIRECT|NOT_FOUND)/.test(m[1]!)) return `digest ${m[1]}`;
  }
  return null;
}

async function sweep(api: APIRequestContext, routes: string[]) {
  const bad: string[] = [];
  for (const route of routes) {
    for (const junk of JUNK) {
      const path = route.replaceAll("{x}", junk);
      const res = await api.get(path, { maxRedirects: 0, timeout: 60_000 });
      const status = res.status();
      const body = await res.text();
      const isApi = path.startsWith("/api/");
      // a route handler may answer 200 (an empty result), 400, 403 (a student at an export) or 404; a session
      // refused (401) would mean the test proves nothing; past Node's 16 KB header limit the server says 431
      const allowed =
        (path.length > 16 * 1024 && status === 431) ||
        (isApi ? status < 500 && status !== 401 : status === 200 || status === 404);
      const failure = isApi ? null : renderFailure(body);
      if (!allowed || failure) bad.push(`${status} ${failure ?? ""} ${path.slice(0, 140)}`);
    }
  }
  return bad;
}

for (const role of ["teacher", "manager", "student"] as const) {
  test(`every id and search parameter answers like an unknown id (${role})`, async () => {
    test.setTimeout(600_000);
    const api = await newRequest.newContext({ baseURL: BASE_URL, storageState: storageStateOf(role) });
    // the shared session is valid: a plain page of the area renders
    expect((await api.get(`/dashboard/${role}/home`, { maxRedirects: 0 })).status()).toBe(200);
    expect(await sweep(api, ROUTES[role])).toEqual([]);
    await api.dispose();
  });
}

test("search boxes take % _ ' \\ and NUL as text: a normal, exact result", async ({ page: browserPage }) => {
  const { teacher, school, students } = await makeSchool(2);
  const odd = await createUser(e2eDb(), {
    role: "student",
    email: `odd-${school.id.slice(0, 8)}@test.example`,
    schoolId: school.id,
    name: "百%_'\\ 太郎",
    nameKana: "ひゃく たろう",
    student: { grade: 2, className: "3", number: 1 },
  });
  await signInAs(browserPage, teacher.email!, TEST_PASSWORD);
  const api = browserPage.request;

  const found = async (page: "students" | "portfolio", q: string) => {
    // URLSearchParams sends a lone surrogate as U+FFFD (its raw UTF-8 bytes are in the sweep above)
    const res = await api.get(`/dashboard/teacher/${page}?${new URLSearchParams({ q })}`, { maxRedirects: 0 });
    expect(res.status(), q).toBe(200);
    const body = await res.text();
    expect(renderFailure(body), q).toBeNull();
    return [...new Set([...body.matchAll(/data-student-id="([^"]+)"/g)].map((m) => m[1]))].sort();
  };
  for (const page of ["students", "portfolio"] as const) {
    for (const q of ["%", "_", "'", "\\", "%_", "百%_'\\"])
      expect(await found(page, q), `${page} ${q}`).toEqual([odd.id]);
    for (const q of ["%%", "__", "a%", "\u0000", "花\u0000子", "\uD800", "x".repeat(10_000), "'; select 1; --"]) {
      expect(await found(page, q), `${page} ${q.slice(0, 20)}`).toEqual([]);
    }
    expect(await found(page, "花子")).toEqual(students.map((s) => s.id).sort());
  }
});
