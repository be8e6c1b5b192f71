-- One student per seat (grade, class, attendance number) in a school. The seat
-- lives in student_details and the school in users, so student_details keeps a
-- copy of the school that the database maintains itself (the app never writes
-- it): set from users on every insert, and followed when a user's school changes.
ALTER TABLE "student_details" ADD COLUMN "school_id" UUID;

CREATE FUNCTION "student_details_set_school"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."school_id" := (SELECT "school_id" FROM "users" WHERE "id" = NEW."user_id");
  RETURN NEW;
END $$;
CREATE TRIGGER "student_details_set_school" BEFORE INSERT OR UPDATE OF "user_id", "school_id" ON "student_details"
  FOR EACH ROW EXECUTE FUNCTION "student_details_set_school"();

CREATE FUNCTION "users_school_to_student_details"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "student_details" SET "school_id" = NEW."school_id" WHERE "user_id" = NEW."id";
  RETURN NULL;
END $$;
CREATE TRIGGER "users_school_to_student_details" AFTER UPDATE OF "school_id" ON "users"
  FOR EACH ROW WHEN (OLD."school_id" IS DISTINCT FROM NEW."school_id") EXECUTE FUNCTION "users_school_to_student_details"();

UPDATE "student_details" sd SET "school_id" = u."school_id" FROM "users" u WHERE u."id" = sd."user_id";

-- Seats taken twice before this rule: the student added first keeps the seat;
-- the others keep grade and class and lose only the number, so the students
-- table shows them for the teacher to number again.
UPDATE "student_details" sd SET "number" = NULL
FROM (
  SELECT "user_id", row_number() OVER (PARTITION BY "school_id", "grade", "class_name", "number" ORDER BY "created_at", "user_id") AS n
  FROM "student_details"
  WHERE "grade" IS NOT NULL AND "class_name" IS NOT NULL AND "number" IS NOT NULL
) d
WHERE d."user_id" = sd."user_id" AND d.n > 1;

-- Students without a (full) seat, e.g. imported from the legacy product, may be many.
CREATE UNIQUE INDEX "student_details_school_seat_key" ON "student_details"("school_id", "grade", "class_name", "number")
  WHERE "grade" IS NOT NULL AND "class_name" IS NOT NULL AND "number" IS NOT NULL;
