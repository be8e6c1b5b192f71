import { inject } from "vitest";
import { TEST_SIGNIN_CODE_KEY } from "./helpers";

// Server code reads its configuration through lib/env: point it at the run's database.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.AUTH_SECRET ??= "integration-test-secret-integration-test-secret";
process.env.SIGNIN_CODE_KEY = TEST_SIGNIN_CODE_KEY;
// The server code's log lines (platform/ops/log.ts) at info would bury the test report: warnings
// and errors only, unless the run asks for more (tests that read log lines make their own logger).
process.env.LOG_LEVEL ??= "warn";
