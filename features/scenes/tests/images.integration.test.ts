import { deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveSceneContent } from "@/features/activities/server/scene-commands";
import { saveSceneSchema } from "@/features/activities/shared/scene-schema";
import { db } from "@/platform/db";
import { imageForViewer } from "@/features/scenes/server/image-queries";
import { MAX_IMAGE_BYTES, MAX_STORED_BYTES } from "@/features/scenes/shared/image-limits";
import { imageStorage } from "@/features/scenes/server/image-storage";
import { storeImage } from "@/features/scenes/server/image-store";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

/** A real picture made here: a gradient with a red square (so re-encoding has something to keep). */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } }).composite([
    {
      input: { create: { width: Math.ceil(width / 4), height: Math.ceil(height / 4), channels: 3, background: "red" } },
      left: 0,
      top: 0,
    },
  ]);

/** The CRC-32 of a PNG chunk (type and data). */
function crc32(bytes: Buffer) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(4 + body.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 4 + body.length);
  return out;
};
/** A decompression bomb: a valid 1-bit 30000×30000 PNG (900 megapixels) whose zeros deflate to a few hundred KB. */
function pixelBomb() {
  const side = 30_000;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const idat = deflateSync(Buffer.alloc(side * (1 + side / 8)), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** An image's stored bytes, through the storage (keyed by the row's content hash). */
const bytesOf = async (id: string) =>
  imageStorage().get((await db().image.findUniqueOrThrow({ where: { id }, select: { sha256: true } })).sha256);

describe("images: upload checks, re-encoding, storage and scope", () => {
  let school: AuthorizedSchoolId;
  let other: AuthorizedSchoolId;
  let teacher: string;
  const people = {} as Record<
    "student" | "teacher" | "otherTeacher" | "manager" | "foreignManager",
    { id: string; role: "student" | "teacher" | "manager"; schoolId: string | null; academyId: string | null }
  >;

  beforeAll(async () => {
    await syncTemplates(db(), await readTemplateFiles());
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `画像学園${tag}`, nameKana: "がぞう" });
    const foreign = await createAcademy(db(), { name: `他学園${tag}`, nameKana: "た" });
    school = (await createSchool(db(), { academyId: academy.id, name: `画像校${tag}`, nameKana: "がぞうこう" }))
      .id as AuthorizedSchoolId;
    other = (await createSchool(db(), { academyId: foreign.id, name: `他校${tag}`, nameKana: "たこう" }))
      .id as AuthorizedSchoolId;
    teacher = (await createUser(db(), { role: "teacher", email: `im-${tag}@t.example`, schoolId: school })).id;
    const student = await createUser(db(), {
      role: "student",
      email: `ims-${tag}@t.example`,
      schoolId: school,
      student: { grade: 1, className: "1", number: 1 },
    });
    const otherTeacher = await createUser(db(), { role: "teacher", email: `imo-${tag}@t.example`, schoolId: other });
    const manager = await createUser(db(), { role: "manager", email: `imm-${tag}@t.example`, academyId: academy.id });
    const foreignManager = await createUser(db(), {
      role: "manager",
      email: `imf-${tag}@t.example`,
      academyId: foreign.id,
    });
    people.student = { id: student.id, role: "student", schoolId: school, academyId: null };
    people.teacher = { id: teacher, role: "teacher", schoolId: school, academyId: null };
    people.otherTeacher = { id: otherTeacher.id, role: "teacher", schoolId: other, academyId: null };
    people.manager = { id: manager.id, role: "manager", schoolId: null, academyId: academy.id };
    people.foreignManager = { id: foreignManager.id, role: "manager", schoolId: null, academyId: foreign.id };
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("stores PNG, JPEG and WebP re-encoded in their own type, the longest edge at most 1600 px", async () => {
    const cases = [
      { input: await picture(2400, 1200).png().toBuffer(), type: "image/png", format: "png", size: [1600, 800] },
      { input: await picture(800, 3200).jpeg().toBuffer(), type: "image/jpeg", format: "jpeg", size: [400, 1600] },
      { input: await picture(300, 200).webp().toBuffer(), type: "image/webp", format: "webp", size: [300, 200] },
    ] as const;
    for (const c of cases) {
      const stored = await storeImage(school, teacher, c.input);
      if (!stored.ok) throw new Error(`refused ${c.type}: ${stored.problem}`);
      expect(stored.image).toMatchObject({ contentType: c.type, width: c.size[0], height: c.size[1] });
      const bytes = await bytesOf(stored.image.id);
      const meta = await sharp(bytes!).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([c.format, ...c.size]);
      const row = await db().image.findUniqueOrThrow({ where: { id: stored.image.id } });
      expect(row).toMatchObject({
        schoolId: school,
        contentType: c.type,
        byteSize: bytes!.byteLength,
        createdById: teacher,
      });
      expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("keeps no EXIF, GPS, ICC or XMP of a photo, and turns it upright by its orientation first", async () => {
    const exif = {
      IFD0: { Make: "Phone", Copyright: "SECRETNAME" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "35/1 41/1 2244/100",
        GPSLongitudeRef: "E",
        GPSLongitude: "139/1 41/1 3016/100",
      },
    };
    for (const encode of [(s: Sharp) => s.png(), (s: Sharp) => s.jpeg()]) {
      // 400×200 stored with orientation 6 (shown turned a quarter: 200×400)
      const input = await encode(picture(400, 200).withExif(exif).withMetadata({ orientation: 6 })).toBuffer();
      const before = await sharp(input).metadata();
      expect(before.exif?.toString("latin1")).toContain("SECRETNAME");
      const stored = await storeImage(school, teacher, input);
      if (!stored.ok) throw new Error(stored.problem);
      const bytes = (await bytesOf(stored.image.id))!;
      const after = await sharp(bytes).metadata();
      expect([after.exif, after.icc, after.xmp, after.orientation]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(bytes.toString("latin1")).not.toContain("SECRETNAME");
      expect(bytes.toString("latin1")).not.toContain("GPS");
      expect([stored.image.width, stored.image.height]).toEqual([200, 400]);
    }
  });

  it("refuses GIF, SVG, HTML, a PNG signature before HTML (polyglot), a GIF named as a PNG, and empty bytes, storing nothing", async () => {
    const count = () => db().image.count({ where: { schoolId: school } });
    const before = await count();
    const gif = await picture(20, 20).gif().toBuffer();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    );
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    const polyglot = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), html]);
    const jpegHead = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), gif]);
    const webpHead = Buffer.concat([Buffer.from("RIFF\u0000\u0000\u0000\u0000WEBP", "latin1"), html]);
    const results = await Promise.all(
      [gif, svg, html, polyglot, jpegHead, webpHead, Buffer.alloc(0)].map((b) => storeImage(school, teacher, b)),
    );
    expect(results.map((r) => (r.ok ? "stored" : r.problem))).toEqual([
      "type",
      "type",
      "type",
      "unreadable",
      "unreadable",
      "unreadable",
      "type",
    ]);
    expect(await count()).toBe(before);
  });

  it("refuses a file over 5 MiB and a decompression bomb (by its header, before decoding)", async () => {
    const big = Buffer.concat([await picture(10, 10).png().toBuffer(), Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect(await storeImage(school, teacher, big)).toEqual({ ok: false, problem: "tooLarge" });
    const bomb = pixelBomb();
    expect(bomb.byteLength).toBeLessThan(MAX_IMAGE_BYTES);
    const started = performance.now();
    expect(await storeImage(school, teacher, bomb)).toEqual({ ok: false, problem: "pixels" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("refuses a tiny file that decodes to tens of megapixels (a flat 6300×6300 WebP of 2 KB: seconds of CPU for nothing)", async () => {
    const flat = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: "white" } })
      .webp({ lossless: true })
      .toBuffer();
    expect(flat.byteLength).toBeLessThan(4_000);
    expect(await storeImage(school, teacher, flat)).toEqual({ ok: false, problem: "pixels" });
    // a small flat image is fine: cheap to decode whatever its ratio
    expect(
      await storeImage(
        school,
        teacher,
        await sharp({ create: { width: 400, height: 300, channels: 3, background: "white" } })
          .webp({ lossless: true })
          .toBuffer(),
      ),
    ).toMatchObject({ ok: true });
  });

  it("never stores more than MAX_STORED_BYTES: a photo whose PNG would be larger is stored as WebP", async () => {
    const photo = await sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: "black",
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .blur(3)
      .png()
      .toBuffer();
    expect(photo.byteLength).toBeLessThan(MAX_IMAGE_BYTES);
    const stored = await storeImage(school, teacher, photo);
    expect(stored).toMatchObject({ ok: true, image: { contentType: "image/webp", width: 1600, height: 1200 } });
    const bytes = await bytesOf((stored as { image: { id: string } }).image.id);
    expect(bytes!.byteLength).toBeLessThanOrEqual(MAX_STORED_BYTES);
  });

  it("shows an image to its school's student and teacher and its academy's manager, to nobody else (same null as an unknown id)", async () => {
    const stored = await storeImage(school, teacher, await picture(50, 50).png().toBuffer());
    if (!stored.ok) throw new Error(stored.problem);
    const id = stored.image.id;
    for (const who of ["student", "teacher", "manager"] as const)
      expect((await imageForViewer(people[who], id))?.id).toBe(id);
    for (const who of ["otherTeacher", "foreignManager"] as const)
      expect(await imageForViewer(people[who], id)).toBeNull();
    expect(await imageForViewer(people.teacher, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await imageForViewer(people.teacher, "not-a-uuid")).toBeNull();
  });

  it("saves a scene with the school's image (its stored size, whatever was sent), refuses another school's image and an image without alt text", async () => {
    const act = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId: school });
    const scene = await db().activityScene.findFirstOrThrow({
      where: { activityId: act.id, type: "single_choice" },
      select: { id: true },
    });
    const own = await storeImage(school, teacher, await picture(64, 32).png().toBuffer());
    const foreign = await storeImage(other, people.otherTeacher.id, await picture(64, 32).png().toBuffer());
    if (!own.ok || !foreign.ok) throw new Error("not stored");
    const content = (image: object, optionImage?: object) => ({
      prompt: "図を見て答えましょう",
      image,
      options: [
        { id: "a", label: "あ", ...(optionImage ? { image: optionImage } : {}) },
        { id: "b", label: "い" },
      ],
    });
    const input = (c: object, version: number) =>
      saveSceneSchema.parse({
        activityId: act.id,
        version,
        sceneId: scene.id,
        scene: { type: "single_choice", content: c },
      });
    const ctx = { schoolId: school, actorId: teacher };
    const ownRef = { id: own.image.id, alt: "赤い四角", width: 1600, height: 1600 };
    expect(await saveSceneContent(ctx, input(content(ownRef, { ...ownRef, alt: "選択肢の図" }), 1))).toEqual({
      ok: true,
      data: { version: 2 },
    });
    const saved = await db().activityScene.findUniqueOrThrow({ where: { id: scene.id }, select: { content: true } });
    expect(saved.content).toMatchObject({
      image: { id: own.image.id, alt: "赤い四角", width: 64, height: 32 },
      options: [{ image: { id: own.image.id, alt: "選択肢の図", width: 64, height: 32 } }, {}],
    });
    const foreignRef = { id: foreign.image.id, alt: "他校の図", width: 64, height: 32 };
    expect(await saveSceneContent(ctx, input(content(ownRef, foreignRef), 2))).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { scene: ["image"] },
    });
    const noAlt = saveSceneSchema.safeParse({
      activityId: act.id,
      version: 2,
      sceneId: scene.id,
      scene: { type: "single_choice", content: content({ ...ownRef, alt: "  " }) },
    });
    expect(noAlt.success).toBe(false);
    expect(noAlt.error?.issues[0]).toMatchObject({
      path: ["scene", "content", "image", "alt"],
      message: "altRequired",
    });
    expect(
      (await db().activityScene.findUniqueOrThrow({ where: { id: scene.id }, select: { content: true } })).content,
    ).toEqual(saved.content);
  });
});
