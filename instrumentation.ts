/**
 * Next.js calls register() once when a server process starts (server/main.ts, next start,
 * next dev): the periodic jobs of the process start here.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // images placed in no content for the grace period are removed (hourly; one instance at a time)
  const { scheduleImageSweeps } = await import("@/features/scenes/server/image-cleanup");
  scheduleImageSweeps();
  // the audit log (the sign-in log) keeps an entry SIGNIN_LOG_RETENTION_DAYS (every six hours)
  const { scheduleAuditPrunes } = await import("@/platform/audit/retention");
  scheduleAuditPrunes();
  // the learning records: once an academy has an LRS, the job queue (pg-boss) and its xAPI workers run
  const { scheduleXapi } = await import("@/features/lti/server/xapi-queue");
  scheduleXapi();
  // the scores sent to a portal: once a launch has named a line item, the score workers run on the same queue
  const { scheduleScores } = await import("@/features/lti/server/score-queue");
  scheduleScores();
}
