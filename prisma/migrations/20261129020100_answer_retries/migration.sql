-- Retries: when the teacher allows them, a student may answer a scene again after its verdict and
-- key were shown. The answer shown stays in `responses` (the one marked, counted and exported); every
-- later attempt is kept here, in order, by the save statement (lib/responses/writer-sql.ts).
ALTER TABLE "activities" ADD COLUMN "allow_retries" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "response_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "response_id" UUID NOT NULL,
    "answer" JSONB NOT NULL,
    "client_revision" INTEGER NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "response_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "response_attempts_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "responses"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "response_attempts_response_id_idempotency_key_key" ON "response_attempts"("response_id", "idempotency_key");
