-- The class (組: grade + class name of the students' data) a live session is run for; both null when the
-- teacher ran it for the whole school (docs/decisions.md "Live sessions for one class").
ALTER TABLE "guide_sessions" ADD COLUMN "grade" INTEGER;
ALTER TABLE "guide_sessions" ADD COLUMN "class_name" TEXT;
