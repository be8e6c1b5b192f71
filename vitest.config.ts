import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
// unit and integration tests live beside the code they test (a `tests/` folder in each feature and part)
const TEST_FOLDERS = ["features", "platform", "server", "tools", "scripts", "tests/repo"];

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // `server-only` throws outside React Server Components; tests call server code directly.
      "server-only": path.join(root, "tests/fixtures/server-only.ts"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        // a unit test reading many files (the security document's references) or running
        // fast-check takes seconds on a loaded 2-core CI machine: judged on results, not on time
        test: {
          name: "unit",
          include: [...TEST_FOLDERS.map((f) => `${f}/**/*.test.ts`)],
          exclude: ["**/*.integration.test.ts", "**/node_modules/**"],
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: TEST_FOLDERS.map((f) => `${f}/**/*.integration.test.ts`),
          environment: "node",
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: ["tests/support/setup-env.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
