-- OneRoster import and export (docs/oneroster.md "Import mapping"): everything keyed by
-- the set's sourcedIds, so that a second import of the same set changes nothing and a
-- renamed class moves nobody. StudentDetail keeps grade / class_name / number as the
-- product's 年・組・番号; the columns below only remember where they came from.

-- A school's orgs sourcedId, unique within its academy.
ALTER TABLE "schools" ADD COLUMN "sourced_id" TEXT;
CREATE UNIQUE INDEX "schools_academy_id_sourced_id_key" ON "schools"("academy_id", "sourced_id");

-- A person's users sourcedId (unique everywhere: a set cannot claim another academy's user),
-- the eポータル userMasterIdentifier, and the name parts for a faithful export.
ALTER TABLE "users" ADD COLUMN "sourced_id" TEXT;
ALTER TABLE "users" ADD COLUMN "user_master_identifier" TEXT;
ALTER TABLE "users" ADD COLUMN "family_name" TEXT;
ALTER TABLE "users" ADD COLUMN "given_name" TEXT;
ALTER TABLE "users" ADD COLUMN "kana_family_name" TEXT;
ALTER TABLE "users" ADD COLUMN "kana_given_name" TEXT;
CREATE UNIQUE INDEX "users_sourced_id_key" ON "users"("sourced_id");
CREATE UNIQUE INDEX "users_user_master_identifier_key" ON "users"("user_master_identifier");

-- A homeroom (組) as the roster names it: grade code (J1), the 組 name students carry in
-- student_details.class_name, the title and classCode, its course and term, and 担任.
CREATE TABLE "roster_classes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "school_id" UUID NOT NULL,
    "sourced_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "grade_code" TEXT,
    "grade" INTEGER,
    "class_name" TEXT NOT NULL,
    "class_code" TEXT,
    "course_sourced_id" TEXT,
    "term_sourced_id" TEXT,
    "homeroom_teacher_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "roster_classes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "roster_classes_school_id_fkey" FOREIGN KEY ("school_id") REFERENCES "schools"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "roster_classes_homeroom_teacher_id_fkey" FOREIGN KEY ("homeroom_teacher_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "roster_classes_school_id_sourced_id_key" ON "roster_classes"("school_id", "sourced_id");
CREATE INDEX "roster_classes_homeroom_teacher_id_idx" ON "roster_classes"("homeroom_teacher_id");
