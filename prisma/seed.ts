/**
 * `npm run db:seed`: loads the activity templates and, on the embedded
 * database or with SEED_DEMO=1, the demo school. Idempotent.
 */
import { runSeed } from "./seed/run";

await runSeed({ demo: process.env.SEED_DEMO === "1" || process.env.SEED_DEMO === "true" });
