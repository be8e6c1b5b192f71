-- An academy's Learning Record Store (features/lti, "Learning records"): its statements endpoint, the Basic
-- credentials sealed (AES-256-GCM under a key derived from SIGNIN_CODE_KEY), and whether names and e-mail addresses
-- may leave the school (off unless the academy turns it on).
CREATE TABLE "academy_lrs" (
    "academy_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "credentials_sealed" TEXT NOT NULL,
    "include_names" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "academy_lrs_pkey" PRIMARY KEY ("academy_id")
);
ALTER TABLE "academy_lrs" ADD CONSTRAINT "academy_lrs_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The xAPI statements made for it: what was sent (or waits, failed, was refused for good), kept for the activity's
-- JSON lines download and the manager's queue state. The job queue itself is pg-boss's schema "pgboss".
CREATE TABLE "xapi_statements" (
    "id" UUID NOT NULL,
    "academy_id" UUID NOT NULL,
    "activity_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "verb" TEXT NOT NULL,
    "statement" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'waiting',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "xapi_statements_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "xapi_statements_academy_id_state_idx" ON "xapi_statements"("academy_id", "state");
CREATE INDEX "xapi_statements_activity_id_created_at_idx" ON "xapi_statements"("activity_id", "created_at");
ALTER TABLE "xapi_statements" ADD CONSTRAINT "xapi_statements_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE;
