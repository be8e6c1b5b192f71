-- Where each word of the school's own list came from and who last gave its
-- reading (issue #41, the school's readings page, features/activities/README.md
-- "Furigana"): 'editor' when a teacher's ruby was learned from a saved text,
-- 'page' when a teacher or manager corrected the reading on the readings page.
-- updated_by is the person who last gave the reading (null once that account is
-- deleted, and for the rows saved before this migration).
ALTER TABLE "school_readings"
    ADD COLUMN "source" TEXT NOT NULL DEFAULT 'editor',
    ADD COLUMN "updated_by" UUID,
    ADD CONSTRAINT "school_readings_source" CHECK ("source" IN ('editor', 'page')),
    ADD CONSTRAINT "school_readings_updated_by_fkey" FOREIGN KEY ("updated_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
