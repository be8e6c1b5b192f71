import "server-only";
import { activityFileSchema, contentOfFile } from "@/features/activities/shared/file-format";
import { activitySnapshotTx } from "@/features/activities/server/snapshot";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { copyAcademyImages, withPlacedImages } from "@/features/activities/server/image-transfer";
import { createActivityTx } from "@/features/activities/server/template-copy";
import type { LibraryTags } from "../shared/library-schema";

/**
 * Library writes (docs/product-design.md "The academy library"). Publishing
 * and copying take a school id that passed authorizeSchool(); withdrawing and
 * tagging the acting manager's academy id (from the database actor). Every
 * WHERE is scoped by them, so another academy's entry is NOT_FOUND.
 */
interface SchoolCtx {
  schoolId: AuthorizedSchoolId;
  actorId: string;
}
interface AcademyCtx {
  academyId: string;
  actorId: string;
}

const tagData = (tags: LibraryTags) => ({ subject: tags.subject ?? null, grade: tags.grade ?? null, unit: tags.unit });

/**
 * Publishes the school's activity to its academy's library as a snapshot in
 * the activity file format (no answers, no people). Publishing it again
 * replaces that snapshot and its tags (docs/adr/0055-academy-library-snapshots.md).
 */
export async function publishActivity(
  ctx: SchoolCtx,
  input: LibraryTags & { activityId: string },
): Promise<ActionResult<{ id: string; republished: boolean }>> {
  return db().$transaction(async (tx) => {
    const source = await activitySnapshotTx(tx, ctx.schoolId, input.activityId);
    if (!source.ok) return source;
    const { file, academyId } = source.data;
    const before = await tx.libraryEntry.findUnique({
      where: { sourceActivityId: input.activityId },
      select: { id: true },
    });
    const snapshot = {
      academyId,
      sourceSchoolId: ctx.schoolId,
      title: file.title,
      actorType: file.actorType,
      sceneCount: file.scenes.length,
      content: file as Prisma.InputJsonValue,
      publishedById: ctx.actorId,
      ...tagData(input),
    };
    const entry = await tx.libraryEntry.upsert({
      where: { sourceActivityId: input.activityId },
      create: { ...snapshot, sourceActivityId: input.activityId },
      update: { ...snapshot, publishedAt: new Date() },
      select: { id: true },
    });
    await audit(
      {
        action: "library.publish",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        academyId,
        targetType: "libraryEntry",
        targetId: entry.id,
        meta: { activityId: input.activityId, republished: Boolean(before), ...tagData(input) },
      },
      tx,
    );
    return ok({ id: entry.id, republished: Boolean(before) });
  });
}

/** Takes an entry out of the academy's library; activities already copied from it stay. */
export async function withdrawEntry(ctx: AcademyCtx, entryId: string): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const entry = await tx.libraryEntry.findFirst({
      where: { id: entryId, academyId: ctx.academyId },
      select: { title: true, sourceActivityId: true, sourceSchoolId: true },
    });
    if (!entry) return fail("NOT_FOUND");
    await tx.libraryEntry.delete({ where: { id: entryId }, select: { id: true } });
    await audit(
      {
        action: "library.withdraw",
        actorId: ctx.actorId,
        academyId: ctx.academyId,
        schoolId: entry.sourceSchoolId,
        targetType: "libraryEntry",
        targetId: entryId,
        meta: { title: entry.title, activityId: entry.sourceActivityId },
      },
      tx,
    );
    return ok(null);
  });
}

/** Changes an entry's subject, grade and unit (its snapshot stays). */
export async function setEntryTags(ctx: AcademyCtx, entryId: string, tags: LibraryTags): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const changed = await tx.libraryEntry.updateMany({
      where: { id: entryId, academyId: ctx.academyId },
      data: tagData(tags),
    });
    if (changed.count !== 1) return fail("NOT_FOUND");
    await audit(
      {
        action: "library.tags",
        actorId: ctx.actorId,
        academyId: ctx.academyId,
        targetType: "libraryEntry",
        targetId: entryId,
        meta: tagData(tags),
      },
      tx,
    );
    return ok(null);
  });
}

/**
 * Copies an entry of the school's own academy into the school "like a
 * template": a new independent activity made by createActivityTx, as an
 * import is. Copying twice (or twice at once) makes two activities.
 */
export async function copyEntry(
  ctx: SchoolCtx,
  input: { entryId: string; title?: string },
): Promise<ActionResult<{ id: string; title: string }>> {
  const entry = await db().libraryEntry.findFirst({
    where: { id: input.entryId, academy: { schools: { some: { id: ctx.schoolId } } } },
    select: { content: true, academyId: true },
  });
  if (!entry) return fail("NOT_FOUND");
  const parsed = activityFileSchema.parse(entry.content);
  // the snapshot places its source school's images: the school gets its own copies (features/scenes/README.md "Images")
  const placed = await copyAcademyImages(
    ctx.schoolId,
    ctx.actorId,
    entry.academyId,
    parsed.scenes.map((s) => s.content),
  );
  const file = { ...parsed, scenes: withPlacedImages(parsed.scenes, placed) };
  return db().$transaction(async (tx) => {
    const activity = await createActivityTx(tx, {
      schoolId: ctx.schoolId,
      createdById: ctx.actorId,
      content: contentOfFile(file, input.title || file.title),
    });
    await audit(
      {
        action: "activity.copyLibrary",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activity.id,
        meta: { entryId: input.entryId },
      },
      tx,
    );
    return ok(activity);
  });
}
