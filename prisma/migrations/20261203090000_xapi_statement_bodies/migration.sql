-- A statement's JSON moves to a table of its own, written once: marking a statement sent (or refused, or failed)
-- rewrites its narrow row in xapi_statements, not the JSON with it (an update writes the whole row again).
CREATE TABLE "xapi_statement_bodies" (
    "id" UUID NOT NULL,
    "statement" JSONB NOT NULL,

    CONSTRAINT "xapi_statement_bodies_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "xapi_statement_bodies" ADD CONSTRAINT "xapi_statement_bodies_id_fkey" FOREIGN KEY ("id") REFERENCES "xapi_statements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
INSERT INTO "xapi_statement_bodies" ("id", "statement") SELECT "id", "statement" FROM "xapi_statements";
ALTER TABLE "xapi_statements" DROP COLUMN "statement";
