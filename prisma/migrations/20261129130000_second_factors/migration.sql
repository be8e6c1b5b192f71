-- A teacher's or manager's second factor (platform/auth/second-factor.ts).
-- An authenticator app (TOTP, RFC 6238): one per person; the secret sealed with AES-256-GCM under a key derived from
-- SIGNIN_CODE_KEY; confirmed_at null while enrolment waits for a first code; last_step: the time step of the last
-- code accepted (a code of that step or an earlier one is refused).
CREATE TABLE "totp_factors" (
    "user_id" UUID NOT NULL,
    "secret_sealed" TEXT NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "last_step" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "totp_factors_pkey" PRIMARY KEY ("user_id")
);

ALTER TABLE "totp_factors" ADD CONSTRAINT "totp_factors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One-time recovery codes, by a keyed hash (HMAC-SHA-256); used_at set when one is spent.
CREATE TABLE "recovery_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "recovery_codes_user_id_code_hash_key" ON "recovery_codes"("user_id", "code_hash");

ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A staff sign-in waiting for its second factor: the device is not signed in until it is false.
ALTER TABLE "device_sessions" ADD COLUMN "second_factor_pending" BOOLEAN NOT NULL DEFAULT false;

-- The academy's policy: its staff must use a second factor; until the grace end, those without one are only asked.
ALTER TABLE "academies" ADD COLUMN "require_second_factor" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "academies" ADD COLUMN "second_factor_grace_until" TIMESTAMPTZ(3);
