import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
import type { LibraryFile } from "@/features/activities/shared/library-content-schema";
import { bundledActivityFile } from "./library-bundle";

/**
 * Publishes the bundled library files into academies' libraries (docs/product-design.md "The academy
 * library"): each academy receives each file once. The load is recorded in `library_bundle_loads` in the
 * same transaction as the entry, `on conflict do nothing`, so loading again (every start, two starts at
 * once) adds only files the academy never had, and an entry its manager withdrew does not come back.
 * Entries are snapshots: activities teachers copied from them are never touched. `academyIds`: only those
 * (a new academy); absent: every academy. Takes its client (no `server-only`): the seed of every start runs it.
 */
export async function loadBundledLibrary(
  prisma: PrismaClient,
  files: LibraryFile[],
  academyIds?: string[],
): Promise<{ academies: number; added: number }> {
  const academies = await prisma.academy.findMany({
    where: academyIds ? { id: { in: academyIds } } : {},
    select: { id: true },
    orderBy: { id: "asc" },
  });
  let added = 0;
  for (const { id } of academies) added += await loadIntoAcademy(prisma, id, files);
  return { academies: academies.length, added };
}

async function loadIntoAcademy(prisma: PrismaClient, academyId: string, files: LibraryFile[]): Promise<number> {
  if (files.length === 0) return 0;
  return prisma.$transaction(async (tx) => {
    const fresh = await tx.$queryRaw<{ bundle_id: string }[]>`
      insert into library_bundle_loads (academy_id, bundle_id)
      select ${academyId}::uuid, unnest(${files.map((f) => f.id)}::text[])
      on conflict do nothing
      returning bundle_id`;
    const ids = new Set(fresh.map((r) => r.bundle_id));
    // the files' order is the library's (newest first): the first file is published last
    const now = Date.now();
    const data = files.flatMap((file, i) => (ids.has(file.id) ? [entryOf(academyId, file, new Date(now - i))] : []));
    await tx.libraryEntry.createMany({ data });
    return data.length;
  });
}

function entryOf(academyId: string, file: LibraryFile, publishedAt: Date): Prisma.LibraryEntryCreateManyInput {
  const content = bundledActivityFile(file);
  return {
    academyId,
    bundleId: file.id,
    title: content.title,
    actorType: content.actorType,
    sceneCount: content.scenes.length,
    content: content as Prisma.InputJsonValue,
    subject: file.subject,
    grade: file.grade,
    unit: file.unit,
    publishedAt,
  };
}
