/** `npm run build`: next build, then stamps the build with its source hash (so `npm start` reuses it). */
import { spawnSync } from "node:child_process";
import { markBuilt } from "./lib/build-hash";
import { ROOT } from "./lib/prepare-db";

const result = spawnSync(process.execPath, [`${ROOT}/node_modules/next/dist/bin/next`, "build"], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});
if (result.status !== 0) process.exit(result.status ?? 1);
markBuilt(ROOT);
