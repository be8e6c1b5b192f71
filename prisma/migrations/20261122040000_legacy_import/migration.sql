-- Legacy import (npm run import:legacy).
--
-- The legacy product kept no grade, class or attendance number for students:
-- imported students start "unassigned" (NULL) until a teacher sets them.
ALTER TABLE "student_details" ALTER COLUMN "grade" DROP NOT NULL;
ALTER TABLE "student_details" ALTER COLUMN "class_name" DROP NOT NULL;
ALTER TABLE "student_details" ALTER COLUMN "number" DROP NOT NULL;

-- What each legacy document looked like when it was last imported (never a
-- password: only whether there was one). A re-run applies only the fields
-- that changed in the legacy data since, so edits made in Manabiya survive
-- re-running the same export, and people deleted in Manabiya are not
-- re-created. target_id is the Manabiya row the document became.
CREATE TABLE "legacy_records" (
    "kind" TEXT NOT NULL,
    "legacy_id" TEXT NOT NULL,
    "target_id" UUID NOT NULL,
    "snapshot" JSONB NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "legacy_records_pkey" PRIMARY KEY ("kind", "legacy_id"),
    CONSTRAINT "legacy_records_kind_check" CHECK ("kind" IN ('academy', 'school', 'user'))
);
