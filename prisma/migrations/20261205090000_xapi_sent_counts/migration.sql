-- The manager's LRS card counted every statement of the academy, and its parked and failed ones, each time it was
-- shown: scans of xapi_statements, which an academy fills with millions of rows. Now the statements sent are a count
-- per academy, added to by the statement that deletes their waiting rows (features/lti/server/xapi-deliver-commands.ts
-- markSent), and the parked and failed ones (few) have a partial index.
CREATE TABLE "xapi_sent_counts" (
    "academy_id" UUID NOT NULL,
    "sent" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "xapi_sent_counts_pkey" PRIMARY KEY ("academy_id")
);
ALTER TABLE "xapi_sent_counts" ADD CONSTRAINT "xapi_sent_counts_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- No statement is stored, sent, parked or failed while the count is taken (the workers wait: storing and sending
-- pause for as long as the count and the indexes below take on a large table; answer saves do not), so it is exact
-- when this commits. Both locks are taken before the long work and in the order most writers take the tables (a
-- statement stored or parked: xapi_statements, then xapi_statements_waiting). Marking a backlog failed
-- (failWaiting) takes them the other way round in one statement: should it meet this migration there, PostgreSQL
-- ends one of the two, the job is tried again or this migration, in its transaction, runs again at the next deploy.
LOCK TABLE "xapi_statements" IN SHARE MODE;
LOCK TABLE "xapi_statements_waiting" IN SHARE ROW EXCLUSIVE MODE;

-- sent so far: neither parked nor failed, and no longer waiting
INSERT INTO "xapi_sent_counts" ("academy_id", "sent")
  SELECT s."academy_id", count(*) FROM "xapi_statements" s
  WHERE s."outcome" IS NULL AND NOT EXISTS (SELECT FROM "xapi_statements_waiting" w WHERE w."id" = s."id")
  GROUP BY s."academy_id";

-- the parked and failed statements, newest last: the card's count of them and their last error
CREATE INDEX "xapi_statements_outcome_idx" ON "xapi_statements"("academy_id", "created_at") WHERE "outcome" IS NOT NULL;

-- the waiting statements the LRS answered with an error (a batch being tried again), newest last: the card's last
-- error without walking a backlog of statements never tried
CREATE INDEX "xapi_statements_waiting_error_idx" ON "xapi_statements_waiting"("academy_id", "created_at") WHERE "last_error" IS NOT NULL;
