import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { sweepImages } from "@/features/scenes/server/image-cleanup";
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

const GRACE_HOURS = 24;

/** A small picture of its own colour (distinct bytes for each `seed`). */
const picture = (seed: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: seed, g: 200 - seed, b: 90 } } })
    .png()
    .toBuffer();

/** The grace period passing for these images only (the database is shared with other test files). */
const ageMarks = (ids: string[]) =>
  db().image.updateMany({
    where: { id: { in: ids }, unreferencedSince: { not: null } },
    data: { unreferencedSince: new Date(Date.now() - (GRACE_HOURS + 1) * 3_600_000) },
  });

describe("images placed nowhere are removed after a grace period", () => {
  let school: AuthorizedSchoolId;
  let teacher: string;
  let sceneId: string;

  beforeAll(async () => {
    await syncTemplates(db(), await readTemplateFiles());
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `掃除${tag}`, nameKana: "そうじ" });
    school = (await createSchool(db(), { academyId: academy.id, name: `掃除校${tag}`, nameKana: "そうじこう" }))
      .id as AuthorizedSchoolId;
    teacher = (await createUser(db(), { role: "teacher", email: `sw-${tag}@t.example`, schoolId: school })).id;
    const activity = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId: school });
    sceneId = (
      await db().activityScene.findFirstOrThrow({
        where: { activityId: activity.id, type: "single_choice" },
        select: { id: true },
      })
    ).id;
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  const store = async (seed: number) => {
    const stored = await storeImage(school, teacher, await picture(seed));
    if (!stored.ok) throw new Error("not stored");
    return stored.image.id;
  };
  const place = async (ids: string[]) => {
    const scene = await db().activityScene.findUniqueOrThrow({ where: { id: sceneId }, select: { content: true } });
    const content = scene.content as { options: { id: string; image?: object }[] };
    const options = content.options.map((o, i) => {
      const { image: _image, ...rest } = o;
      return ids[i] ? { ...rest, image: { id: ids[i], alt: "図", width: 40, height: 30 } } : rest;
    });
    await db().activityScene.update({ where: { id: sceneId }, data: { content: { ...content, options } } });
  };
  const exists = async (ids: string[]) =>
    (await db().image.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((i) => i.id).sort();

  it("an unreferenced image is removed once the grace period has passed, with its bytes; a placed one and one placed again in time are kept", async () => {
    const [placed, unused, placedAgain] = [await store(11), await store(12), await store(13)];
    await place([placed]);
    const first = await sweepImages(GRACE_HOURS);
    expect(first?.marked).toBeGreaterThanOrEqual(2);
    // within the grace period nothing is removed
    expect(await exists([placed, unused, placedAgain])).toEqual([placed, unused, placedAgain].sort());
    // the teacher puts one back in a scene before the grace passes
    await place([placed, placedAgain]);
    await sweepImages(GRACE_HOURS);
    await ageMarks([placed, unused, placedAgain]);
    const { sha256 } = await db().image.findUniqueOrThrow({ where: { id: unused }, select: { sha256: true } });
    const second = await sweepImages(GRACE_HOURS);
    expect(second?.removed).toBeGreaterThanOrEqual(1);
    expect(await exists([placed, unused, placedAgain])).toEqual([placed, placedAgain].sort());
    expect(await db().imageContent.count({ where: { sha256 } })).toBe(0);
    expect(
      (await db().image.findUniqueOrThrow({ where: { id: placed }, select: { unreferencedSince: true } }))
        .unreferencedSince,
    ).toBeNull();
  });

  it("with several instances one sweep runs at a time: while another instance sweeps, this one skips", async () => {
    let during: unknown = "not run";
    await db().$transaction(async (tx) => {
      // another instance in the middle of its sweep holds the lock
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtext('manabiya:images:sweep'))`;
      during = await sweepImages(GRACE_HOURS);
    });
    expect(during).toBeNull();
    expect(await sweepImages(GRACE_HOURS)).not.toBeNull();
  });
});
