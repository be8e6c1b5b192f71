-- The record of every OneRoster row an academy has received (docs/oneroster.md "The sourcedId record"):
-- orgs, academic sessions, courses, classes of every type, users, roles and enrollments, each with its
-- status, dateLastModified, the profile (oneroster.version) it came in and its fields as sent, keyed by
-- the OneRoster column names. Written by every import in its transaction; a later delta's references
-- resolve against it, and the export writes back what was sent.
CREATE TABLE "roster_records" (
    "academy_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "sourced_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "date_last_modified" TEXT,
    "school_sourced_id" TEXT,
    "profile" TEXT NOT NULL,
    "fields" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "roster_records_pkey" PRIMARY KEY ("academy_id", "kind", "sourced_id"),
    CONSTRAINT "roster_records_status_check" CHECK ("status" IN ('active', 'tobedeleted'))
);

ALTER TABLE "roster_records" ADD CONSTRAINT "roster_records_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE;
