-- A statement's row is written once, its JSON (deflated by the app) in it, and a statement sent changes nothing in it:
-- what waits for the academy's LRS is a narrow row of its own in xapi_statements_waiting, deleted once the LRS takes
-- it (or refuses it for good, or the retries are spent: then the statement's `outcome` says so). Each save's commit
-- waits for the log the workers write alongside it, and marking a statement sent used to write its row again with an
-- entry in each index (features/lti/README.md "Learning records").
ALTER TABLE "xapi_statements" ADD COLUMN "body" BYTEA;
ALTER TABLE "xapi_statements" ADD COLUMN "outcome" TEXT;
-- the JSON of a statement stored before this is its UTF-8 text (features/lti/server/xapi-body.ts reads both)
UPDATE "xapi_statements" s SET "body" = convert_to(b."statement"::text, 'UTF8')
  FROM "xapi_statement_bodies" b WHERE b."id" = s."id";
UPDATE "xapi_statements" SET "body" = convert_to('{}', 'UTF8') WHERE "body" IS NULL;
ALTER TABLE "xapi_statements" ALTER COLUMN "body" SET NOT NULL;
DROP TABLE "xapi_statement_bodies";

DROP INDEX "xapi_statements_waiting_idx";
CREATE TABLE "xapi_statements_waiting" (
    "id" UUID NOT NULL,
    "academy_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "rank" INTEGER NOT NULL,
    "last_error" TEXT,

    CONSTRAINT "xapi_statements_waiting_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "xapi_statements_waiting_idx" ON "xapi_statements_waiting"("academy_id", "created_at", "rank", "id");
ALTER TABLE "xapi_statements_waiting" ADD CONSTRAINT "xapi_statements_waiting_id_fkey" FOREIGN KEY ("id") REFERENCES "xapi_statements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
INSERT INTO "xapi_statements_waiting" ("id", "academy_id", "created_at", "rank", "last_error")
  SELECT "id", "academy_id", "created_at", CASE "verb" WHEN 'initialized' THEN 0 WHEN 'answered' THEN 1 ELSE 2 END, "last_error"
  FROM "xapi_statements" WHERE "state" = 'waiting';
UPDATE "xapi_statements" SET "outcome" = "state" WHERE "state" IN ('parked', 'failed');
UPDATE "xapi_statements" SET "last_error" = NULL WHERE "state" IN ('waiting', 'sent');

ALTER TABLE "xapi_statements" DROP COLUMN "state", DROP COLUMN "attempts", DROP COLUMN "sent_at";
