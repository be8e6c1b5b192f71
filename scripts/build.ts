/** `npm run build`: next build, the static files compressed with brotli, then stamps the build with its source hash (so `npm start` reuses it). */
import { spawnSync } from "node:child_process";
import { markBuilt } from "./lib/build-hash";
import { ROOT } from "./lib/prepare-db";
import { precompressStatic } from "../server/static-brotli";

const result = spawnSync(process.execPath, [`${ROOT}/node_modules/next/dist/bin/next`, "build"], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});
if (result.status !== 0) process.exit(result.status ?? 1);
// the static files brotli-compressed once, at quality 11 (server/static-brotli.ts)
const br = await precompressStatic(ROOT);
console.log(
  `static files compressed with brotli: ${br.files} files, ${(br.bytes / 1024).toFixed(0)} KB → ${(br.brotli / 1024).toFixed(0)} KB`,
);
markBuilt(ROOT);
