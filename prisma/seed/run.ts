import { createPrismaClient } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { parseEnv } from "@/platform/env";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { readLibraryFiles } from "@/features/activities/server/library-bundle";
import { loadBundledLibrary } from "@/features/activities/server/library-bundle-commands";
import { seedDemo } from "./demo";

export async function runSeed(options: { demo: boolean; databaseUrl?: string; log?: (m: string) => void }) {
  const log = options.log ?? ((m: string) => console.log(m));
  const env = parseEnv({ ...process.env, ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) });
  const prisma = createPrismaClient(env.DATABASE_URL, 4);
  try {
    await seedWith(prisma, { demo: options.demo, signinCodeKey: env.SIGNIN_CODE_KEY, log });
  } finally {
    await prisma.$disconnect();
  }
}

/** What every start loads: the templates, the demo when asked, then the bundled library into every academy. */
export async function seedWith(
  prisma: PrismaClient,
  options: { demo: boolean; signinCodeKey: string; log: (m: string) => void },
) {
  const { log } = options;
  const templates = await syncTemplates(prisma, await readTemplateFiles());
  log(`templates: ${templates.total} (${templates.changed} updated)`);
  const demo = options.demo ? await seedDemo(prisma, { signinCodeKey: options.signinCodeKey, log }) : null;
  // after the demo's academies: each academy receives the bundled files it never had
  const library = await loadBundledLibrary(prisma, await readLibraryFiles());
  log(`library: ${library.added} ready activities added to ${library.academies} academies`);
  return { demo, library };
}
