-- Teacher marks and comments on answers (docs/product-design.md "Teacher marks and comments"):
-- one row per marked response, kept when the answer changes (answer_at tells it was marked before).
CREATE TYPE "MarkVerdict" AS ENUM ('correct', 'partly', 'incorrect');

CREATE TABLE "response_marks" (
    "response_id" UUID NOT NULL,
    "verdict" "MarkVerdict",
    "comment" TEXT,
    "marked_by_id" UUID,
    "answer_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "response_marks_pkey" PRIMARY KEY ("response_id")
);

ALTER TABLE "response_marks" ADD CONSTRAINT "response_marks_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "responses"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "response_marks" ADD CONSTRAINT "response_marks_marked_by_id_fkey" FOREIGN KEY ("marked_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
