import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Reads the operator's settings file before anything else reads the
 * environment (imported first by the command-line entry points: npm start,
 * npm run admin, npm run import:legacy). The file is `.env` in the project
 * folder, or the path in MANABIYA_ENV_FILE (empty: none; the test runs set it
 * so a developer's .env never points them at another database). A variable
 * already set in the environment wins over the file. Values may be quoted
 * ("p@ss#word" keeps its #); see .env.example.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const file = process.env.MANABIYA_ENV_FILE ?? path.join(ROOT, ".env");
if (file && existsSync(file)) {
  process.loadEnvFile(file);
  console.log(`settings: ${path.relative(process.cwd(), file) || file} (variables set in the environment win)`);
}
