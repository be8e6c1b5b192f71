import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/platform/db";
import { defineRoute } from "@/platform/http/route";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../tests/support/next-headers-fake";

vi.mock("next/headers", () => import("../../tests/support/next-headers-fake"));

const HOST = "school.example";

/** The calls that got past the checks, with what the handler was given. */
const ran: { actorId: string; id: string }[] = [];
const route = defineRoute({
  roles: ["teacher"],
  async run(_req, actor, id: string) {
    ran.push({ actorId: actor.id, id });
    return Response.json({ ok: true, data: null });
  },
});

/** A request as `cookie` ("" = signed out), from `origin` when given. */
async function ask(method: "GET" | "POST", cookie: string, origin?: string) {
  session.cookie = cookie;
  const res = await route(
    new NextRequest(`https://${HOST}/api/v1/thing`, {
      method,
      ...(method === "POST" ? { body: "{}" } : {}),
      headers: { host: HOST, ...(origin ? { origin } : {}), ...(cookie ? { cookie } : {}) },
    }),
    "the-id",
  );
  return { status: res.status, body: (await res.json()) as unknown, cache: res.headers.get("cache-control") };
}

describe("defineRoute: the prologue of a route handler", () => {
  const cookies = { teacher: "", student: "", disabled: "" };
  let teacherId = "";

  beforeAll(async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `経路${tag}`, nameKana: "けいろ" });
    const school = await createSchool(db(), { academyId: academy.id, name: `経路校${tag}`, nameKana: "けいろこう" });
    const user = (role: "teacher" | "student", n: number, disabled = false) =>
      createUser(db(), { role, email: `route${n}-${tag}@t.example`, schoolId: school.id, disabled });
    const [teacher, student, disabled] = await Promise.all([
      user("teacher", 1),
      user("student", 2),
      user("teacher", 3, true),
    ]);
    teacherId = teacher.id;
    cookies.teacher = await sessionCookieOf(teacher.id, "teacher", 0);
    cookies.student = await sessionCookieOf(student.id, "student", 0);
    cookies.disabled = await sessionCookieOf(disabled.id, "teacher", 0);
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  const refusal = (status: number, code: string) => ({ status, body: { ok: false, code }, cache: "no-store" });

  it("refuses a POST from another site's page with 403 before it looks at the session, signed in or not", async () => {
    ran.length = 0;
    expect(await ask("POST", cookies.teacher, "https://evil.example")).toEqual(refusal(403, "FORBIDDEN"));
    expect(await ask("POST", "", "https://evil.example")).toEqual(refusal(403, "FORBIDDEN"));
    expect(await ask("POST", cookies.teacher, "null")).toEqual(refusal(403, "FORBIDDEN"));
    expect(ran).toEqual([]);
  });

  it("refuses the signed out and a disabled account with 401, and a role not allowed with 403", async () => {
    ran.length = 0;
    expect(await ask("POST", "", `https://${HOST}`)).toEqual(refusal(401, "UNAUTHENTICATED"));
    expect(await ask("GET", "")).toEqual(refusal(401, "UNAUTHENTICATED"));
    expect(await ask("POST", cookies.disabled, `https://${HOST}`)).toEqual(refusal(401, "UNAUTHENTICATED"));
    expect(await ask("POST", cookies.student, `https://${HOST}`)).toEqual(refusal(403, "FORBIDDEN"));
    expect(await ask("GET", cookies.student)).toEqual(refusal(403, "FORBIDDEN"));
    expect(ran).toEqual([]);
  });

  it("runs the handler for an allowed role with the actor and the route's values: a POST from the app's own page or without Origin, a GET from anywhere", async () => {
    ran.length = 0;
    const served = { status: 200, body: { ok: true, data: null }, cache: null };
    expect(await ask("POST", cookies.teacher, `https://${HOST}`)).toEqual(served);
    expect(await ask("POST", cookies.teacher)).toEqual(served);
    expect(await ask("GET", cookies.teacher, "https://evil.example")).toEqual(served);
    expect(ran).toEqual(Array.from({ length: 3 }, () => ({ actorId: teacherId, id: "the-id" })));
  });
});
