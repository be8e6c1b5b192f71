import { NextRequest } from "next/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/platform/db";
import { POST as furiganaRoute } from "@/features/activities/server/furigana-route";
import { loadTokenizer } from "@/features/activities/server/furigana-tokenizer";
import { uploadImage } from "@/features/scenes/server/image-route";
import { storeImage } from "@/features/scenes/server/image-store";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { routeRequest } from "../../../tests/support/helpers";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

const HOST = "school.example";
const TEXT = "先生の方を見てください。東京都に住んでいます。".repeat(40);

/** A furigana request as the editor sends it, with the session set now (the route reads it as it starts). */
function askFurigana(cookie: string) {
  session.cookie = cookie;
  return furiganaRoute(
    routeRequest(HOST, "/api/v1/furigana", cookie, { body: JSON.stringify({ text: TEXT }), origin: `https://${HOST}` }),
  );
}

/** A real photo-sized picture, different for each `seed` (so decoding has work to do). */
const picture = (seed: number) =>
  sharp({ create: { width: 1400, height: 1000, channels: 3, background: { r: seed % 256, g: 120, b: 200 } } })
    .composite([
      { input: { create: { width: 300, height: 200, channels: 3, background: "red" } }, left: seed % 1000, top: 10 },
    ])
    .png()
    .toBuffer();

/** An image upload as the editor sends it. */
function sendImage(cookie: string, bytes: Buffer) {
  session.cookie = cookie;
  return uploadImage(
    new NextRequest(`https://${HOST}/api/v1/images`, {
      method: "POST",
      body: new Uint8Array(bytes),
      headers: { host: HOST, origin: `https://${HOST}`, "content-type": "image/png", cookie },
    }),
  );
}

describe("expensive calls are rationed per person", () => {
  const cookies = { a: "", b: "" };
  const schools = { a: "" as AuthorizedSchoolId, b: "" as AuthorizedSchoolId };
  const teachers = { a: "", b: "" };

  beforeAll(async () => {
    const tag = uniqueTag();
    const academyA = await createAcademy(db(), { name: `配給A${tag}`, nameKana: "はいきゅう" });
    const academyB = await createAcademy(db(), { name: `配給B${tag}`, nameKana: "はいきゅう" });
    const schoolA = await createSchool(db(), {
      academyId: academyA.id,
      name: `配給校A${tag}`,
      nameKana: "はいきゅうこう",
    });
    const schoolB = await createSchool(db(), {
      academyId: academyB.id,
      name: `配給校B${tag}`,
      nameKana: "はいきゅうこう",
    });
    const a = await createUser(db(), { role: "teacher", email: `ra-${tag}@t.example`, schoolId: schoolA.id });
    const b = await createUser(db(), { role: "teacher", email: `rb-${tag}@t.example`, schoolId: schoolB.id });
    Object.assign(schools, { a: schoolA.id, b: schoolB.id });
    Object.assign(teachers, { a: a.id, b: b.id });
    cookies.a = await sessionCookieOf(a.id, "teacher", 0);
    cookies.b = await sessionCookieOf(b.id, "teacher", 0);
    await loadTokenizer();
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("32 parallel furigana calls by one teacher get 429 with Retry-After beyond the limit, while another teacher's call succeeds", async () => {
    const flood = Array.from({ length: 32 }, () => askFurigana(cookies.a));
    const other = askFurigana(cookies.b);
    const replies = await Promise.all(flood);
    const statuses = replies.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(16);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const refused of replies.filter((r) => r.status === 429)) {
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ ok: false, code: "RATE_LIMITED" });
    }
    const theirs = await other;
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as { data: { proposals: unknown[] } }).data.proposals.length).toBeGreaterThan(0);
    // the refused calls were never counted as running: the teacher's next call goes through
    expect((await askFurigana(cookies.a)).status).toBe(200);
  });

  it("a school filling the image decoder's queue does not make another academy's upload fail: its own extra uploads are told to wait", async () => {
    const bytes = await Promise.all(Array.from({ length: 13 }, (_, i) => picture(i * 37)));
    // a burst from school A (several teachers, or an imported file's images) all at once
    const burst = bytes.slice(0, 12).map((b) => storeImage(schools.a, teachers.a, b));
    const theirs = await sendImage(cookies.b, bytes[12]!);
    expect(theirs.status).toBe(200);
    expect(await theirs.json()).toMatchObject({ ok: true, data: { width: 1400, height: 1000 } });
    const results = await Promise.all(burst);
    expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(1);
    const refused = results.filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r).toEqual({ ok: false, problem: "busy" });
  });

  it("refuses a teacher's upload over their ration with 429, Retry-After and the problem 'busy'", async () => {
    const bytes = await picture(5);
    const replies = await Promise.all(Array.from({ length: 6 }, () => sendImage(cookies.a, bytes)));
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    for (const r of refused) {
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await r.json()).toEqual({ ok: false, code: "RATE_LIMITED", problem: "busy" });
    }
  });
});
