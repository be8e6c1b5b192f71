-- The school's own word list for automatic furigana (issue #41 point 5,
-- features/activities/README.md "Furigana"): a word a teacher of the school
-- gave a reading other than the proposer's (or one the proposer marked
-- 「要確認」 or could not read) when saving a scene's text, with that reading.
-- One row per school and word; at most 2,000 a school (the oldest dropped,
-- features/activities/server/furigana-word-commands.ts); the word at most 20
-- characters, the reading hiragana only. The school is a foreign key in SQL
-- only, so that the Prisma block stands alone.
CREATE TABLE "school_readings" (
    "school_id" UUID NOT NULL,
    "base" TEXT NOT NULL,
    "reading" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "school_readings_pkey" PRIMARY KEY ("school_id", "base"),
    CONSTRAINT "school_readings_school_id_fkey" FOREIGN KEY ("school_id") REFERENCES "schools"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "school_readings_base_length" CHECK (char_length("base") BETWEEN 1 AND 20),
    CONSTRAINT "school_readings_reading_kana" CHECK ("reading" ~ '^[ぁ-ゖゝゞー]{1,60}$')
);

CREATE INDEX "school_readings_school_id_updated_at_idx" ON "school_readings"("school_id", "updated_at");
