import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
import { type TemplateFile, templateFileSchema } from "@/features/activities/shared/template-content-schema";

export const TEMPLATES_DIR = path.resolve(import.meta.dirname, "../../../prisma/content/templates");

/** Reads and validates every template content file; throws with the file name on a bad one. */
export function readTemplateFiles(dir = TEMPLATES_DIR): Promise<TemplateFile[]> {
  return readContentFiles(dir, templateFileSchema);
}

/**
 * Reads and validates every content file (`*.json`) of `dir` with `schema`, in file name order; throws with
 * the file name on a bad one or one whose `id` is not its name (templates, the bundled library).
 */
export async function readContentFiles<T extends { id: string }>(dir: string, schema: z.ZodType<T>): Promise<T[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw: unknown = JSON.parse(await readFile(path.join(dir, file), "utf8"));
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      }
      if (`${parsed.data.id}.json` !== file) throw new Error(`${file}: id must match the file name`);
      return parsed.data;
    }),
  );
}

/**
 * Loads the templates into the database: creates new ones, replaces the scenes
 * of changed ones (by content hash), leaves unchanged ones alone. Activities are
 * copies, so they never change with a template.
 */
export async function syncTemplates(prisma: PrismaClient, templates: TemplateFile[]) {
  let changed = 0;
  for (const t of templates) {
    const contentHash = createHash("sha256").update(JSON.stringify(t)).digest("hex");
    const existing = await prisma.activityTemplate.findUnique({ where: { id: t.id }, select: { contentHash: true } });
    if (existing?.contentHash === contentHash) continue;
    changed += 1;
    await prisma.$transaction(async (tx) => {
      const data = { title: t.title, description: t.description, actorType: t.actorType, contentHash };
      await tx.activityTemplate.upsert({ where: { id: t.id }, create: { id: t.id, ...data }, update: data });
      await tx.templateScene.deleteMany({ where: { templateId: t.id } });
      await tx.templateScene.createMany({
        data: t.scenes.map((s, position) => ({
          id: `${t.id}/${s.id}`,
          templateId: t.id,
          position,
          type: s.type,
          content: s.content as Prisma.InputJsonValue,
        })),
      });
    });
  }
  return { total: templates.length, changed };
}
