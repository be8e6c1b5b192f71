-- A teacher's comment as the student reads it: the comment with automatic furigana (the analyser's readings of its
-- kanji words as ruby markup). The comment as written stays in "comment" for staff; null: nothing to add.
ALTER TABLE "response_marks" ADD COLUMN "comment_furigana" TEXT;
