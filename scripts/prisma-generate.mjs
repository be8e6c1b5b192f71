// Runs `prisma generate` after `npm install`. Prisma 7's CLI wants a schema
// engine binary path even for `generate`, which does not use it; on machines
// that cannot download Prisma's engines we point it at an existing file
// (see docs/database.md).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const cli = "node_modules/prisma/build/index.js";
if (!existsSync(cli)) {
  console.error("prisma is not installed: run npm install");
  process.exit(1);
}
execFileSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
