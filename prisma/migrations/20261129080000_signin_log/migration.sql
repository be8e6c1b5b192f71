-- The sign-in log is the audit log (platform/audit): each entry keeps the client's user agent too,
-- and a manager's view of their academy's entries, newest first, reads them by academy and time.
ALTER TABLE "audit_logs" ADD COLUMN "user_agent" TEXT;
CREATE INDEX "audit_logs_academy_id_at_idx" ON "audit_logs"("academy_id", "at");
