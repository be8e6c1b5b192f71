-- The academy library (issue #20 point 10): a manager publishes a school's
-- activity to its academy as a snapshot in the activity file format
-- (lib/activities/file-format.ts: title, actor type, scenes, group orders; no
-- answers, no student data). One entry per source activity: publishing again
-- replaces the snapshot and tags (docs/decisions.md "The academy library").
-- Withdrawing deletes the entry; the audit log keeps who, when and from where.
CREATE TABLE "library_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "academy_id" UUID NOT NULL,
    "source_school_id" UUID,
    "source_activity_id" UUID,
    "title" TEXT NOT NULL,
    "actor_type" "ActorType" NOT NULL,
    "scene_count" INTEGER NOT NULL,
    "content" JSONB NOT NULL,
    "subject" TEXT,
    "grade" TEXT,
    "unit" TEXT NOT NULL DEFAULT '',
    "published_by_id" UUID,
    "published_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "library_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "library_entries_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "library_entries_source_school_id_fkey" FOREIGN KEY ("source_school_id") REFERENCES "schools"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "library_entries_source_activity_id_fkey" FOREIGN KEY ("source_activity_id") REFERENCES "activities"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "library_entries_published_by_id_fkey" FOREIGN KEY ("published_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "library_entries_title_check" CHECK (length(btrim("title")) > 0),
    CONSTRAINT "library_entries_unit_check" CHECK (char_length("unit") <= 100)
);
CREATE UNIQUE INDEX "library_entries_source_activity_id_key" ON "library_entries"("source_activity_id");
CREATE INDEX "library_entries_academy_id_published_at_idx" ON "library_entries"("academy_id", "published_at");
