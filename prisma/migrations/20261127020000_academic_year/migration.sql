-- The academic year (年度): April 1 to March 31, Japan time; 年度 2026 = 2026-04-01 .. 2027-03-31
-- (docs/decisions.md "Academic year and the year-end rollover").
CREATE FUNCTION "academic_year_of"(at TIMESTAMPTZ) RETURNS INTEGER LANGUAGE sql STABLE AS $$
  SELECT (extract(year FROM ((at AT TIME ZONE 'Asia/Tokyo') - interval '3 months')))::int
$$;

-- The year a school is in: advanced by the year-end rollover (lib/rollover), never backwards.
ALTER TABLE "schools" ADD COLUMN "current_year" INTEGER NOT NULL DEFAULT academic_year_of(now());

-- The year an activity and a live session belong to: the later of the calendar's year and the
-- school's (a school that rolled over in March already works in the new year). Set by the database
-- when an insert leaves it out (no column default: the trigger fills a NULL); a value given is kept,
-- so a restore (COPY) brings back each row's own year.
ALTER TABLE "activities" ADD COLUMN "academic_year" INTEGER;
UPDATE "activities" SET "academic_year" = academic_year_of("created_at");
ALTER TABLE "activities" ALTER COLUMN "academic_year" SET NOT NULL;
CREATE INDEX "activities_school_id_academic_year_idx" ON "activities"("school_id", "academic_year");

ALTER TABLE "guide_sessions" ADD COLUMN "academic_year" INTEGER;
UPDATE "guide_sessions" SET "academic_year" = academic_year_of("started_at");
ALTER TABLE "guide_sessions" ALTER COLUMN "academic_year" SET NOT NULL;

CREATE FUNCTION "activities_set_academic_year"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."academic_year" IS NULL THEN
    NEW."academic_year" := greatest(academic_year_of(NEW."created_at"), (SELECT "current_year" FROM "schools" WHERE "id" = NEW."school_id"));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "activities_set_academic_year" BEFORE INSERT ON "activities"
  FOR EACH ROW EXECUTE FUNCTION "activities_set_academic_year"();

CREATE FUNCTION "guide_sessions_set_academic_year"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."academic_year" IS NULL THEN
    NEW."academic_year" := greatest(academic_year_of(NEW."started_at"),
      (SELECT s."current_year" FROM "activities" a JOIN "schools" s ON s."id" = a."school_id" WHERE a."id" = NEW."activity_id"));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "guide_sessions_set_academic_year" BEFORE INSERT ON "guide_sessions"
  FOR EACH ROW EXECUTE FUNCTION "guide_sessions_set_academic_year"();

-- A graduate keeps the seat of their last year (their history) but no longer holds it: the
-- year they graduated, and the one-student-per-seat rule counts only students still at school.
ALTER TABLE "student_details" ADD COLUMN "graduated_year" INTEGER;
DROP INDEX "student_details_school_seat_key";
CREATE UNIQUE INDEX "student_details_school_seat_key" ON "student_details"("school_id", "grade", "class_name", "number")
  WHERE "grade" IS NOT NULL AND "class_name" IS NOT NULL AND "number" IS NOT NULL AND "graduated_year" IS NULL;
