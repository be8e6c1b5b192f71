import { createPrismaClient } from "@/platform/db/client";
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
    const templates = await syncTemplates(prisma, await readTemplateFiles());
    log(`templates: ${templates.total} (${templates.changed} updated)`);
    if (options.demo) await seedDemo(prisma, { signinCodeKey: env.SIGNIN_CODE_KEY, log });
    // after the demo's academies: each academy receives the bundled files it never had
    const library = await loadBundledLibrary(prisma, await readLibraryFiles());
    log(`library: ${library.added} ready activities added to ${library.academies} academies`);
  } finally {
    await prisma.$disconnect();
  }
}
