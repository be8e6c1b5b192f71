import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { defineConfig, globalIgnores } from "eslint/config";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".data/**",
    "node_modules/**",
    "platform/db/generated/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
  {
    // Type-aware rules where a mistake loses data: promises that are never awaited.
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },

  {
    // Small functions: at most 80 lines of code (blank lines and comments not counted); an exception is
    // named where it stands, with its reason. Every product and tool folder is held to it; test files are not
    // (a test's steps read best in order).
    files: [
      "app/**/*.{ts,tsx}",
      "screens/**/*.{ts,tsx}",
      "features/**/*.{ts,tsx,mjs}",
      "platform/**/*.{ts,tsx,mjs}",
      "server/**/*.ts",
      "tools/**/*.ts",
      "scripts/**/*.{ts,mjs}",
      "proxy.ts",
      "instrumentation.ts",
    ],
    ignores: ["**/tests/**"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
]);
