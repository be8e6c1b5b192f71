-- Each year's seat (年・組・番号) of a student: the year-end rollover records the year that ends
-- (lib/rollover), so that a past year's answers are listed with the seat the student had that year
-- (lib/students/year-seat.ts; docs/decisions.md "Seats by year").
CREATE TABLE "student_year_seats" (
    "user_id" UUID NOT NULL,
    "academic_year" INTEGER NOT NULL,
    "grade" INTEGER,
    "class_name" TEXT,
    "number" INTEGER,
    CONSTRAINT "student_year_seats_pkey" PRIMARY KEY ("user_id", "academic_year")
);
ALTER TABLE "student_year_seats" ADD CONSTRAINT "student_year_seats_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Graduates of a rollover before this table: the seat they keep is the one of the year they graduated
-- in. Students at school need no row: a year without one is listed at the current seat (a row for
-- the current year would go stale when a teacher moves the student during the year).
INSERT INTO "student_year_seats" ("user_id", "academic_year", "grade", "class_name", "number")
SELECT "user_id", "graduated_year", "grade", "class_name", "number" FROM "student_details" WHERE "graduated_year" IS NOT NULL;
