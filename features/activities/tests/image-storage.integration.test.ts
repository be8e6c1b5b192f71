import { createHash, randomBytes } from "node:crypto";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/platform/db";
import { uploadImage } from "@/features/scenes/server/image-route";
import { copyAcademyImages } from "@/features/activities/server/image-transfer";
import { keepImage, keepImages } from "@/features/scenes/server/image-store";
import { getImageBytes } from "@/features/scenes/server/image-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
// a small quota, so a few photos reach it (read when the environment is first parsed)
process.env.IMAGE_QUOTA_MB = "1";

const HOST = "school.example";

/** A photo-like picture (noise: it compresses badly), several hundred KB as stored. */
const photo = () =>
  sharp(randomBytes(900 * 900 * 3), { raw: { width: 900, height: 900, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();

/** An image upload as the editor sends it, by the teacher whose cookie is given. */
async function send(cookie: string, bytes: Buffer) {
  session.cookie = cookie;
  const res = await uploadImage(
    new NextRequest(`https://${HOST}/api/v1/images`, {
      method: "POST",
      body: new Uint8Array(bytes),
      headers: { host: HOST, origin: `https://${HOST}`, "content-type": "image/jpeg", cookie },
    }),
  );
  return { status: res.status, body: (await res.json()) as { ok: boolean; data?: { id: string }; problem?: string } };
}

describe("image storage: quota per school, identical bytes stored once", () => {
  const schools = { a: "", b: "", c: "", academy: "" };
  const cookies = { a: "", b: "", c: "" };
  let teacherC = "";

  beforeAll(async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `容量${tag}`, nameKana: "ようりょう" });
    const a = await createSchool(db(), { academyId: academy.id, name: `容量A${tag}`, nameKana: "ようりょう" });
    const b = await createSchool(db(), { academyId: academy.id, name: `容量B${tag}`, nameKana: "ようりょう" });
    const c = await createSchool(db(), { academyId: academy.id, name: `容量C${tag}`, nameKana: "ようりょう" });
    Object.assign(schools, { a: a.id, b: b.id, c: c.id, academy: academy.id });
    teacherC = (await createUser(db(), { role: "teacher", email: `qc-${tag}@t.example`, schoolId: c.id })).id;
    cookies.c = await sessionCookieOf(teacherC, "teacher", 0);
    cookies.a = await sessionCookieOf(
      (await createUser(db(), { role: "teacher", email: `qa-${tag}@t.example`, schoolId: a.id })).id,
      "teacher",
      0,
    );
    cookies.b = await sessionCookieOf(
      (await createUser(db(), { role: "teacher", email: `qb-${tag}@t.example`, schoolId: b.id })).id,
      "teacher",
      0,
    );
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("refuses an upload past the school's quota with the problem 'quota' (its message in every catalogue), while another school still uploads", async () => {
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await send(cookies.a, await photo()));
    expect(replies[0]).toMatchObject({ status: 200, body: { ok: true } });
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused)
      expect(r).toEqual({ status: 409, body: { ok: false, code: "VALIDATION", problem: "quota" } });
    const used = await db().image.aggregate({ where: { schoolId: schools.a }, _sum: { byteSize: true } });
    expect(used._sum.byteSize).toBeLessThanOrEqual(1024 * 1024);
    expect(await send(cookies.b, await photo())).toMatchObject({ status: 200, body: { ok: true } });
    for (const file of ["ja", "ja-kana", "ja-ruby"]) {
      const messages = (await import(`../../../messages/${file}.json`)) as {
        SceneEditor: { image: { problems: Record<string, string> } };
      };
      expect(messages.SceneEditor.image.problems.quota).toMatch(/\S/);
    }
  });

  it("the same bytes uploaded twice by a school are one image: the same id, one row, no quota spent", async () => {
    const bytes = await photo();
    const first = await send(cookies.b, bytes);
    const again = await send(cookies.b, bytes);
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await db().image.count({ where: { schoolId: schools.b, id: first.body.data!.id } })).toBe(1);
    const row = await db().image.findUniqueOrThrow({ where: { id: first.body.data!.id }, select: { sha256: true } });
    expect(await db().image.count({ where: { schoolId: schools.b, sha256: row.sha256 } })).toBe(1);
  });

  it("the same bytes uploaded by another school and copied by the library into a third are rows of their own sharing one stored copy", async () => {
    const bytes = await photo();
    const tag = uniqueTag();
    const d = await createSchool(db(), { academyId: schools.academy, name: `容量D${tag}`, nameKana: "ようりょう" });
    const e = await createSchool(db(), { academyId: schools.academy, name: `容量E${tag}`, nameKana: "ようりょう" });
    const cookieD = await sessionCookieOf(
      (await createUser(db(), { role: "teacher", email: `qd-${tag}@t.example`, schoolId: d.id })).id,
      "teacher",
      0,
    );
    const inC = await send(cookies.c, bytes);
    const inD = await send(cookieD, bytes);
    expect(inC.status).toBe(200);
    expect(inD.status).toBe(200);
    expect(inD.body.data!.id).not.toBe(inC.body.data!.id);
    const { sha256 } = await db().image.findUniqueOrThrow({
      where: { id: inC.body.data!.id },
      select: { sha256: true },
    });
    // a library copy from C into a school that does not have it yet
    const copied = await copyAcademyImages(e.id as AuthorizedSchoolId, teacherC, schools.academy, [
      { image: { id: inC.body.data!.id } },
    ]);
    const inE = copied.get(inC.body.data!.id)!;
    expect(
      await db().image.findUniqueOrThrow({ where: { id: inE.id }, select: { schoolId: true, sha256: true } }),
    ).toEqual({ schoolId: e.id, sha256 });
    expect(await db().image.count({ where: { sha256 } })).toBe(3);
    expect(await db().imageContent.count({ where: { sha256 } })).toBe(1);
  });

  it("pages stored together: each page's image in order, the same bytes one image, a known one reused; past the quota none at all", async () => {
    const tag = uniqueTag();
    const school = (
      await createSchool(db(), { academyId: schools.academy, name: `容量F${tag}`, nameKana: "ようりょう" })
    ).id as AuthorizedSchoolId;
    const page = async (bytes: Buffer) => ({
      bytes,
      contentType: "image/jpeg" as const,
      width: 900,
      height: 900,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
    const small = () =>
      sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } })
        .jpeg()
        .toBuffer();
    const [known, first, second] = await Promise.all([small(), small(), small()]);
    const before = await keepImage(school, teacherC, await page(known!));
    if (!before.ok) throw new Error(before.problem);
    const kept = await keepImages(school, teacherC, [
      await page(first!),
      await page(known!),
      await page(first!),
      await page(second!),
    ]);
    if (!kept.ok) throw new Error(kept.problem);
    const [a, b, c, d] = kept.images;
    expect([b!.id, b!.created]).toEqual([before.image.id, false]);
    expect([a!.created, c!.id, d!.created]).toEqual([true, a!.id, true]);
    const rows = await db().image.findMany({
      where: { id: { in: [a!.id, d!.id] } },
      select: { id: true, sha256: true },
    });
    expect(new Map(rows.map((r) => [r.id, r.sha256]))).toEqual(
      new Map([
        [a!.id, (await page(first!)).sha256],
        [d!.id, (await page(second!)).sha256],
      ]),
    );
    expect(await getImageBytes((await page(second!)).sha256)).toEqual(second);
    expect(await db().auditLog.count({ where: { action: "image.upload", targetId: { in: [a!.id, d!.id] } } })).toBe(2);
    // three new photos do not fit in what is left of the 1 MB quota together: none is stored
    const count = await db().image.count({ where: { schoolId: school } });
    const many = await Promise.all([photo(), photo(), photo()].map(async (p) => page(await p)));
    expect(await keepImages(school, teacherC, many)).toEqual({ ok: false, problem: "quota" });
    expect(await db().image.count({ where: { schoolId: school } })).toBe(count);
  });
});
