/**
 * For xapi-backlog.integration.test.ts: records the statements of the answers it is sent, as the learning records'
 * workers' child does (features/lti/server/xapi-worker-child.mjs: the same start, the heap the test gives it), and
 * answers `{ academies }`, or `{ error }`.
 */
import { startIdleChild } from "../../../platform/server-modules.mjs";

const [{ recordAnswers }] = await startIdleChild(import.meta.url, ["../server/xapi-record-commands.ts"]);

process.on("message", (saves) => {
  recordAnswers(saves).then(
    (academies) => process.send?.({ academies }),
    (error) => process.send?.({ error: String(error) }),
  );
});
process.send?.({ ready: true });
