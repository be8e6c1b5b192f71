/**
 * The access matrix over every page and route handler (server actions have
 * theirs in tests/integration/actions-access.integration.test.ts): each is
 * requested as a student, a teacher and a manager of an academy, and signed
 * out, with the ids of the own school, of another school of the same academy
 * and of another academy's school. The outcome (allowed, redirected, no
 * access) must be the expected one, and no response body may carry the
 * canary strings seeded into the other schools' names, titles and answers
 * (the manager may see the sibling school's: it is in their academy).
 * A page or route handler without a row here fails the suite.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { type Browser, expect, test } from "@playwright/test";
import type { Role } from "@/lib/auth/roles";
import { createAcademy, createActivityFromTemplate, createResponse, createSchool, createUser, uniqueTag } from "../../prisma/seed/factories";
import { BASE_URL } from "./config";
import { e2eDb, TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";
import { ROUTES } from "./routes";

type Who = Role | "signedOut";
type Variant = "own" | "sibling" | "foreign" | "mixed";
type Outcome = "allowed" | "redirected" | "no access";
interface Ids {
  schoolId: string;
  self: string;
  guide: string;
  teacherActivity: string;
  studentId: string;
  /** the solo activity's first (info) scene, which the school's student has answered */
  selfScene: string;
}

// set by beforeAll, which Playwright may run more than once per worker (fully parallel files): fresh each time
let tag = "";
const CANARY = { sibling: "", foreign: "" };
const ids = {} as Record<Exclude<Variant, "mixed">, Ids>;
const cookies = {} as Record<Who, string>;

/** A school with a teacher, a student, a solo, a guide and a teacher activity, and the student's answers; every name and title carries `canary`. */
async function seedMatrixSchool(academyId: string, canary: string, staffEmailTag: string) {
  const db = e2eDb();
  const mark = canary ? ` ${canary}` : "";
  const school = await createSchool(db, { academyId, name: `行列中学校${mark}`, nameKana: "ぎょうれつちゅうがっこう" });
  const teacher = await createUser(db, {
    role: "teacher", email: `mt-${staffEmailTag}-${tag}@test.example`, password: TEST_PASSWORD, schoolId: school.id, name: `行列 先生${mark}`, nameKana: "ぎょうれつ せんせい",
  });
  const student = await createUser(db, {
    role: "student", email: `ms-${staffEmailTag}-${tag}@test.example`, password: TEST_PASSWORD, schoolId: school.id, name: `行列 花子${mark}`, nameKana: "ぎょうれつ はなこ",
    nickname: canary || null, student: { grade: 1, className: "1", number: 1 },
  });
  const self = await createActivityFromTemplate(db, { templateId: "science-dissolve", schoolId: school.id, mode: "self", title: `理科${mark}` });
  const guide = await createActivityFromTemplate(db, { templateId: "science-dissolve", schoolId: school.id, mode: "guide", title: `授業${mark}` });
  const teacherActivity = await createActivityFromTemplate(db, { templateId: "teacher-lesson-reflection", schoolId: school.id, mode: "self", title: `振り返り${mark}` });
  const scenes = await db.activityScene.findMany({ where: { activityId: self.id }, orderBy: { position: "asc" } });
  for (const scene of scenes) {
    const answer =
      scene.type === "free_text" ? { text: `感想${mark}` }
      : scene.type === "two_step" ? null
      : scene.type === "single_choice" ? { choice: "clear" }
      : { seen: true };
    if (answer) await createResponse(db, { activityId: self.id, sceneId: scene.id, userId: student.id, answer, scenePosition: scene.position });
  }
  return {
    ids: { schoolId: school.id, self: self.id, guide: guide.id, teacherActivity: teacherActivity.id, studentId: student.id, selfScene: scenes[0]!.id },
    teacher,
    student,
  };
}

async function cookieOf(browser: Browser, email: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, email, TEST_PASSWORD);
  const header = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  await context.close();
  return header;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  tag = uniqueTag();
  CANARY.sibling = `CANARYSIB${tag}`;
  CANARY.foreign = `CANARYFOR${tag}`;
  const academy = await createAcademy(e2eDb(), { name: `行列学園${tag}`, nameKana: "ぎょうれつがくえん" });
  const other = await createAcademy(e2eDb(), { name: `他学園 ${CANARY.foreign}`, nameKana: "たがくえん" });
  const own = await seedMatrixSchool(academy.id, "", "own");
  ids.own = own.ids;
  ids.sibling = (await seedMatrixSchool(academy.id, CANARY.sibling, "sib")).ids;
  ids.foreign = (await seedMatrixSchool(other.id, CANARY.foreign, "for")).ids;
  const manager = await createUser(e2eDb(), { role: "manager", email: `mm-${tag}@test.example`, password: TEST_PASSWORD, academyId: academy.id, name: "行列 管理" });
  cookies.student = await cookieOf(browser, own.student.email!);
  cookies.teacher = await cookieOf(browser, own.teacher.email!);
  cookies.manager = await cookieOf(browser, manager.email!);
  cookies.signedOut = "";
});

/** The ids a variant puts into a path: `mixed` names the own school with the sibling school's activity and student. */
const idsOf = (variant: Variant): Ids => (variant === "mixed" ? { ...ids.sibling, schoolId: ids.own.schoolId } : ids[variant]);

interface Reply {
  status: number;
  location: string;
  body: string;
}

async function send(who: Who, pathname: string, init: { method?: string; body?: string; stream?: boolean } = {}): Promise<Reply> {
  const controller = new AbortController();
  const res = await fetch(`${BASE_URL}${pathname}`, {
    method: init.method ?? "GET",
    redirect: "manual",
    signal: controller.signal,
    headers: { Cookie: cookies[who], ...(init.body ? { "Content-Type": "application/json", Origin: BASE_URL } : {}) },
    body: init.body,
  });
  let body = "";
  if (init.stream && res.status === 200 && res.body) {
    // a stream never ends: what arrives in the first 1.5 s (the padding and the first state)
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), until - Date.now()))]);
      if (!chunk || chunk.done) break;
      body += decoder.decode(chunk.value, { stream: true });
      if (body.includes("event: state")) break;
    }
    controller.abort();
  } else {
    body = await res.text();
  }
  return { status: res.status, location: res.headers.get("location") ?? "", body };
}

/** No foreign data in what `who` got (the manager may see the sibling school of their academy). */
function expectNoCanary(who: Who, reply: Reply, what: string) {
  expect(reply.body.includes(CANARY.foreign), `${what}: another academy's data reached ${who}`).toBe(false);
  if (who !== "manager") expect(reply.body.includes(CANARY.sibling), `${what}: another school's data reached ${who}`).toBe(false);
}

const WHO: Who[] = ["student", "teacher", "manager", "signedOut"];

// ------------------------------------------------------------------ pages

function fill(pattern: string, v: Ids): string {
  const activity = /\/(guide|session)\//.test(pattern) ? v.guide : pattern.startsWith("/dashboard/teacher/activities/solo/") ? v.teacherActivity : v.self;
  return pattern.replace("[schoolId]", v.schoolId).replace("[activityId]", activity).replace("[studentId]", v.studentId);
}

function expectedPage(area: string, pattern: string, who: Who, variant: Variant): Outcome {
  if (area === "public") return "allowed";
  if (who === "signedOut" || who !== area) return "redirected";
  const onlySchool = !pattern.includes("[activityId]") && !pattern.includes("[studentId]");
  if (variant === "own" || (variant === "mixed" && onlySchool)) return "allowed";
  if (variant === "sibling" && who === "manager" && pattern.includes("[schoolId]")) return "allowed";
  return "no access";
}

/** A no-access page is the not-found page: status 404, or (once the shell has streamed) the not-found screen. */
function outcomeOfPage(reply: Reply): Outcome {
  if (reply.status >= 300 && reply.status < 400) return "redirected";
  if (reply.status === 404 || reply.body.includes('<meta name="robots" content="noindex"/>')) return "no access";
  return reply.status === 200 ? "allowed" : "no access";
}

for (const route of ROUTES) {
  const variants: Variant[] = !route.pattern.includes("[") ? ["own"] : route.pattern.includes("[schoolId]") ? ["own", "sibling", "foreign", "mixed"] : ["own", "sibling", "foreign"];
  test(`page ${route.pattern}`, async () => {
    test.setTimeout(60_000);
    for (const who of WHO) {
      for (const variant of variants) {
        const pathname = route.pattern.includes("[") ? fill(route.pattern, idsOf(variant)) : route.path;
        const reply = await send(who, pathname);
        const expected = expectedPage(route.area, route.pattern, who, variant);
        const what = `${who} → ${pathname} (${variant})`;
        expect(route.area === "public" && reply.status >= 300 && reply.status < 400 ? "allowed" : outcomeOfPage(reply), what).toBe(expected);
        if (expected === "redirected") expect(reply.location, what).toMatch(who === "signedOut" ? /\/signin\?from=/ : new RegExp(`/dashboard/${who}/home$`));
        expectNoCanary(who, reply, what);
      }
    }
  });
}

// ------------------------------------------------------------------ route handlers

interface HandlerRow {
  /** The route.ts file under app/. */
  file: string;
  /** The request each variant makes as `who` (manager requests name the school), and the statuses expected. */
  request: (v: Ids, who: Who) => { method?: string; path: string; body?: string; stream?: boolean };
  variants: Variant[];
  expected: (who: Who, variant: Variant) => number[];
}

const staffOnly = (ok: number) => (who: Who, variant: Variant) =>
  who === "signedOut" ? [401]
  : who === "student" ? [403]
  : variant === "own" || (variant === "sibling" && who === "manager") ? [ok]
  : [404];
const withSchool = (v: Ids, who: Who) => (who === "manager" ? `?school=${v.schoolId}` : "");

const HANDLERS: HandlerRow[] = [
  {
    file: "api/auth/[...nextauth]/route.ts",
    // next-auth's own endpoints: the session endpoint is the one that returns data
    request: () => ({ path: "/api/auth/session" }),
    variants: ["own"],
    expected: () => [200],
  },
  {
    file: "auth/ended/route.ts",
    request: () => ({ path: "/auth/ended?reason=userDisabled" }),
    variants: ["own"],
    expected: () => [307],
  },
  {
    file: "api/students/sheets/route.ts",
    request: (v) => ({ method: "POST", path: "/api/students/sheets", body: JSON.stringify({ ids: v.studentId }) }),
    variants: ["own", "sibling", "foreign"],
    expected: (who, variant) => (who === "signedOut" ? [401] : who !== "teacher" ? [403] : variant === "own" ? [200] : [404]),
  },
  {
    file: "api/v1/answers/route.ts",
    // the school's student already answered this scene (revision 1): the own student's repeat is acknowledged and changes nothing
    request: (v) => ({
      method: "POST",
      path: "/api/v1/answers",
      body: JSON.stringify({ activityId: v.self, sceneId: v.selfScene, answer: { seen: true }, clientRevision: 1, idempotencyKey: `matrix-${tag}`, mode: "self" }),
    }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) => (who === "signedOut" ? [401] : who === "manager" ? [403] : who === "student" && variant === "own" ? [200] : [404]),
  },
  {
    file: "api/v1/exports/[activityId]/results/route.ts",
    request: (v, who) => ({ path: `/api/v1/exports/${v.self}/results${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly(200),
  },
  {
    file: "api/v1/exports/[activityId]/responses/route.ts",
    request: (v, who) => ({ path: `/api/v1/exports/${v.self}/responses${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: staffOnly(200),
  },
  {
    file: "api/v1/live/[activityId]/state/route.ts",
    request: (v, who) => ({ path: `/api/v1/live/${v.guide}/state${withSchool(v, who)}` }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) => (who === "signedOut" ? [401] : variant === "own" || (variant === "sibling" && who === "manager") ? [200] : [404]),
  },
  {
    file: "api/v1/live/[activityId]/events/route.ts",
    request: (v, who) => ({ path: `/api/v1/live/${v.guide}/events${withSchool(v, who)}`, stream: true }),
    variants: ["own", "sibling", "foreign", "mixed"],
    expected: (who, variant) => (who === "signedOut" ? [401] : variant === "own" || (variant === "sibling" && who === "manager") ? [200] : [404]),
  },
  {
    file: "api/v1/live/school/events/route.ts",
    request: () => ({ path: "/api/v1/live/school/events", stream: true }),
    variants: ["own"],
    expected: (who) => (who === "signedOut" ? [401] : who === "manager" ? [403] : [200]),
  },
];

function routeFiles(dir = "app", prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routeFiles(full, `${prefix}${name}/`));
    else if (name === "route.ts") out.push(`${prefix}${name}`);
  }
  return out;
}

test("every route handler has a row in the matrix", () => {
  expect(routeFiles().sort()).toEqual(HANDLERS.map((h) => h.file).sort());
});

for (const handler of HANDLERS) {
  test(`route ${handler.file}`, async () => {
    test.setTimeout(60_000);
    // nothing a handler is asked here may change anybody's answers
    const answers = () => e2eDb().response.findMany({ where: { activityId: { in: [ids.own.self, ids.sibling.self, ids.foreign.self] } }, orderBy: { id: "asc" } });
    const before = await answers();
    for (const who of WHO) {
      for (const variant of handler.variants) {
        const req = handler.request(idsOf(variant), who);
        const reply = await send(who, req.path, req);
        const what = `${who} → ${req.method ?? "GET"} ${req.path} (${variant})`;
        expect(handler.expected(who, variant), `${what}: got ${reply.status} ${reply.body.slice(0, 120)}`).toContain(reply.status);
        expectNoCanary(who, reply, what);
      }
    }
    expect(await answers()).toEqual(before);
  });
}
