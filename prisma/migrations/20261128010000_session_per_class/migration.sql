-- Several classes run the same activity at once (issue 21 point 7): one running session per
-- (activity, class) instead of one per activity. A whole-school session (grade and class null) is
-- keyed (0, ''); that it excludes every class session (and they it) is kept by the start mutation
-- under the activity's row lock (lib/live/session.ts).
DROP INDEX IF EXISTS "guide_sessions_one_running";
CREATE UNIQUE INDEX "guide_sessions_one_running_per_class" ON "guide_sessions"("activity_id", coalesce("grade", 0), coalesce("class_name", '')) WHERE "ended_at" IS NULL;
