-- A person's display language (issue #18.8): set by a teacher for a student
-- (e.g. kana for a first-grader) or saved when the person switches. At sign-in
-- it becomes the language cookie; without one, staff get plain Japanese and
-- students Japanese with reading aids.
ALTER TABLE "users" ADD COLUMN "display_language" TEXT;
ALTER TABLE "users" ADD CONSTRAINT "users_display_language_check" CHECK ("display_language" IN ('ja', 'ja-ruby', 'ja-kana'));
