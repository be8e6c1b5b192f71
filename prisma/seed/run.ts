import { createPrismaClient } from "@/platform/db/client";
import { parseEnv } from "@/platform/env";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { seedDemo } from "./demo";

export async function runSeed(options: { demo: boolean; databaseUrl?: string; log?: (m: string) => void }) {
  const log = options.log ?? ((m: string) => console.log(m));
  const env = parseEnv({ ...process.env, ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) });
  const prisma = createPrismaClient(env.DATABASE_URL, 4);
  try {
    const templates = await syncTemplates(prisma, await readTemplateFiles());
    log(`templates: ${templates.total} (${templates.changed} updated)`);
    if (options.demo) await seedDemo(prisma, { signinCodeKey: env.SIGNIN_CODE_KEY, log });
  } finally {
    await prisma.$disconnect();
  }
}
