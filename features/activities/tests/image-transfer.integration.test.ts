/**
 * Images crossing schools with an activity (features/scenes/README.md "Images") and the image
 * route's replies, through the real route handlers and server action as signed-in users.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next-intl/server", () => ({ getLocale: async () => "ja" }));

import { NextRequest } from "next/server";
import { importActivityFromForm } from "@/features/activities/server/actions";
import { activityFileExport } from "@/features/activities/server/export";
import { db } from "@/platform/db";
import { serveImage, uploadImage } from "@/features/scenes/server/image-route";
import { imageStorage } from "@/features/scenes/server/image-storage";
import { storeImage } from "@/features/scenes/server/image-store";
import { copyEntry, publishActivity } from "@/features/activities/server/library-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

const w = {
  schoolA: "",
  schoolA2: "",
  schoolB: "",
  teacherA: "",
  teacherB: "",
  studentA: "",
  activity: "",
  image: "",
  optionImage: "",
};
const png = (r: number) =>
  sharp({ create: { width: 120, height: 80, channels: 3, background: { r, g: 40, b: 90 } } })
    .png()
    .toBuffer();

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academyA = await createAcademy(db(), { name: `絵A${tag}`, nameKana: "えー" });
  const academyB = await createAcademy(db(), { name: `絵B${tag}`, nameKana: "びー" });
  w.schoolA = (await createSchool(db(), { academyId: academyA.id, name: `絵A校${tag}`, nameKana: "えーこう" })).id;
  w.schoolA2 = (await createSchool(db(), { academyId: academyA.id, name: `絵A2校${tag}`, nameKana: "えーにこう" })).id;
  w.schoolB = (await createSchool(db(), { academyId: academyB.id, name: `絵B校${tag}`, nameKana: "びーこう" })).id;
  const user = async (role: "student" | "teacher", place: object) =>
    (await createUser(db(), { role, email: `${role}-${uniqueTag()}@img.example`, ...place })).id;
  w.teacherA = await user("teacher", { schoolId: w.schoolA });
  w.teacherB = await user("teacher", { schoolId: w.schoolB });
  w.studentA = await user("student", { schoolId: w.schoolA, student: { grade: 1, className: "1", number: 1 } });
  const image = await storeImage(w.schoolA as AuthorizedSchoolId, w.teacherA, await png(200));
  const optionImage = await storeImage(w.schoolA as AuthorizedSchoolId, w.teacherA, await png(20));
  if (!image.ok || !optionImage.ok) throw new Error("not stored");
  [w.image, w.optionImage] = [image.image.id, optionImage.image.id];
  w.activity = (
    await createActivityFromTemplate(db(), {
      templateId: "math-linear-equations",
      schoolId: w.schoolA,
      title: "図の問題",
    })
  ).id;
  const scene = await db().activityScene.findFirstOrThrow({
    where: { activityId: w.activity, type: "single_choice" },
    select: { id: true },
  });
  await db().activityScene.update({
    where: { id: scene.id },
    data: {
      content: {
        prompt: "どちらの図？",
        image: { id: w.image, alt: "|赤(あか)い四角", width: 120, height: 80 },
        options: [
          { id: "a", label: "あ", image: { id: w.optionImage, alt: "青い四角", width: 120, height: 80 } },
          { id: "b", label: "い" },
        ],
      },
    },
  });
});
afterAll(async () => {
  await db().$disconnect();
});

const as = async (id: string, role: string) => {
  session.cookie = await sessionCookieOf(id, role);
};
const exportText = async () =>
  (
    await activityFileExport(new NextRequest(`http://localhost/api/v1/exports/${w.activity}/activity`), w.activity)
  ).text();
const formOf = (text: string) => {
  const form = new FormData();
  form.set("file", new File([text], "activity.json", { type: "application/json" }));
  return form;
};
const choiceContent = async (activityId: string) =>
  (
    await db().activityScene.findFirstOrThrow({
      where: { activityId, type: "single_choice" },
      select: { content: true },
    })
  ).content as {
    image: { id: string; alt: string; width: number };
    options: { image?: { id: string; alt: string } }[];
  };
const bytesOf = async (id: string) =>
  imageStorage().get((await db().image.findUniqueOrThrow({ where: { id }, select: { sha256: true } })).sha256);
const pixels = async (id: string) =>
  (
    await sharp((await bytesOf(id))!)
      .raw()
      .toBuffer()
  ).subarray(0, 3);

describe("images travel with an activity", () => {
  it("an exported file carries the scene's and the option's images; another school's import gets its own copies, the same pixels", async () => {
    await as(w.teacherA, "teacher");
    const file = JSON.parse(await exportText());
    expect(Object.keys(file.images).sort()).toEqual([w.image, w.optionImage].sort());
    expect(file.images[w.image]).toMatchObject({
      type: "image/png",
      data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
    });

    await as(w.teacherB, "teacher");
    const result = await importActivityFromForm(null, formOf(JSON.stringify(file)));
    if (!result.ok) throw new Error(JSON.stringify(result));
    const content = await choiceContent(result.data.id);
    expect(content.image).toMatchObject({ alt: "|赤(あか)い四角", width: 120 });
    expect(content.options[0]!.image).toMatchObject({ alt: "青い四角" });
    const copies = [content.image.id, content.options[0]!.image!.id];
    expect(copies).not.toContain(w.image);
    expect(copies).not.toContain(w.optionImage);
    expect(await db().image.count({ where: { id: { in: copies }, schoolId: w.schoolB } })).toBe(2);
    expect(await pixels(copies[0]!)).toEqual(await pixels(w.image));
    expect(await pixels(copies[1]!)).toEqual(await pixels(w.optionImage));
  });

  it("an activity whose images make a file larger than an import accepts is not exported as a file nobody can import (413), and nothing is built beyond that", async () => {
    await as(w.teacherA, "teacher");
    const noise = await sharp({
      create: {
        width: 560,
        height: 560,
        channels: 3,
        background: "black",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const stored = await storeImage(w.schoolA as AuthorizedSchoolId, w.teacherA, noise);
    if (!stored.ok) throw new Error(JSON.stringify(stored));
    const heavy = (
      await createActivityFromTemplate(db(), {
        templateId: "math-linear-equations",
        schoolId: w.schoolA,
        title: "重い図",
      })
    ).id;
    const scene = await db().activityScene.findFirstOrThrow({
      where: { activityId: heavy, type: "single_choice" },
      select: { id: true, content: true },
    });
    await db().activityScene.update({
      where: { id: scene.id },
      data: {
        content: {
          ...(scene.content as object),
          image: { id: stored.image.id, alt: "ノイズ", width: 560, height: 560 },
        },
      },
    });
    const res = await activityFileExport(new NextRequest(`http://localhost/api/v1/exports/${heavy}/activity`), heavy);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ ok: false, code: "VALIDATION" });
  });

  it("a file whose image is an SVG, HTML or a GIF named a PNG is refused, and nothing is created", async () => {
    await as(w.teacherA, "teacher");
    const file = JSON.parse(await exportText());
    await as(w.teacherB, "teacher");
    const before = {
      activities: await db().activity.count({ where: { schoolId: w.schoolB } }),
      images: await db().image.count({ where: { schoolId: w.schoolB } }),
    };
    const fakes = [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      Buffer.from("<script>alert(1)</script>"),
      await sharp({ create: { width: 20, height: 20, channels: 3, background: "red" } })
        .gif()
        .toBuffer(),
    ];
    for (const fake of fakes) {
      const forged = {
        ...file,
        images: { ...file.images, [w.optionImage]: { type: "image/png", data: fake.toString("base64") } },
      };
      expect(await importActivityFromForm(null, formOf(JSON.stringify(forged)))).toEqual({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { file: ["invalid"], field: ["images"] },
      });
    }
    const notBase64 = { ...file, images: { [w.image]: { type: "image/png", data: "<html>" } } };
    expect(await importActivityFromForm(null, formOf(JSON.stringify(notBase64)))).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { file: ["invalid"] },
    });
    expect({
      activities: await db().activity.count({ where: { schoolId: w.schoolB } }),
      images: await db().image.count({ where: { schoolId: w.schoolB } }),
    }).toEqual(before);
  });

  it("a library copy into another school of the academy gets its own copies of the images", async () => {
    const published = await publishActivity(
      { schoolId: w.schoolA as AuthorizedSchoolId, actorId: w.teacherA },
      { activityId: w.activity, unit: "" },
    );
    if (!published.ok) throw new Error("not published");
    const copied = await copyEntry(
      { schoolId: w.schoolA2 as AuthorizedSchoolId, actorId: w.teacherA },
      { entryId: published.data.id },
    );
    if (!copied.ok) throw new Error("not copied");
    const content = await choiceContent(copied.data.id);
    expect(
      await db().image.count({
        where: { id: { in: [content.image.id, content.options[0]!.image!.id] }, schoolId: w.schoolA2 },
      }),
    ).toBe(2);
    expect(await pixels(content.image.id)).toEqual(await pixels(w.image));
  });
});

describe("GET /api/v1/images/{id}", () => {
  const get = (id: string, headers: Record<string, string> = {}) =>
    serveImage(new NextRequest(`http://localhost/api/v1/images/${id}`, { headers }), id);

  it("serves the school's student the image with its type, immutable private caching, an ETag that answers 304, nosniff and CSP none", async () => {
    await as(w.studentA, "student");
    const res = await get(w.image);
    expect(res.status).toBe(200);
    expect(
      Object.fromEntries(
        ["content-type", "cache-control", "x-content-type-options"].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      "content-type": "image/png",
      "cache-control": "private, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect((await sharp(bytes).metadata()).format).toBe("png");
    const etag = res.headers.get("etag")!;
    const again = await get(w.image, { "if-none-match": etag });
    expect([again.status, (await again.arrayBuffer()).byteLength]).toEqual([304, 0]);
  });

  it("answers 404 to another academy's teacher exactly as to an unknown id, and 401 signed out", async () => {
    await as(w.teacherB, "teacher");
    const foreign = await get(w.image);
    const unknown = await get("00000000-0000-4000-8000-000000000000");
    expect([foreign.status, await foreign.json()]).toEqual([404, { ok: false, code: "NOT_FOUND" }]);
    expect([unknown.status, await unknown.json()]).toEqual([404, { ok: false, code: "NOT_FOUND" }]);
    session.cookie = "";
    expect((await get(w.image)).status).toBe(401);
  });
});

describe("POST /api/v1/images", () => {
  const post = (body: Uint8Array, headers: Record<string, string> = {}, query = "") =>
    uploadImage(
      new NextRequest(`http://localhost/api/v1/images${query}`, {
        method: "POST",
        body: new Uint8Array(body),
        headers: { host: "localhost", "content-type": "image/png", ...headers },
      }),
    );

  it("stores a teacher's upload for their school; refuses another site's page, a student, another school, a declared size over the limit and a non-image", async () => {
    const count = () => db().image.count({ where: { schoolId: w.schoolA } });
    const before = await count();
    const bytes = await png(90);
    await as(w.teacherA, "teacher");
    const stored = await post(bytes, { origin: "http://localhost" });
    expect(stored.status).toBe(200);
    expect(await stored.json()).toMatchObject({ ok: true, data: { width: 120, height: 80 } });
    expect(await count()).toBe(before + 1);
    expect((await post(bytes, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(bytes, {}, `?school=${w.schoolB}`)).status).toBe(403);
    expect((await post(bytes, { "content-length": String(6 * 1024 * 1024) })).status).toBe(413);
    const html = await post(new Uint8Array(Buffer.from("<html><script>alert(1)</script>")));
    expect([html.status, await html.json()]).toEqual([415, { ok: false, code: "VALIDATION", problem: "type" }]);
    await as(w.studentA, "student");
    expect((await post(bytes)).status).toBe(403);
    session.cookie = "";
    expect((await post(bytes)).status).toBe(401);
    expect(await count()).toBe(before + 1);
  });
});
