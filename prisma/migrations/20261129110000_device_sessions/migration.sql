-- A teacher's or manager's signed-in device: one row per sign-in, named by the session token's `sid`;
-- a request whose device has ended_at set is signed out. session_version: the user's when it signed in (a larger
-- one on the user has ended it too).
CREATE TABLE "device_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "session_version" INTEGER NOT NULL,
    "method" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "device_sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "device_sessions_user_id_created_at_idx" ON "device_sessions"("user_id", "created_at");

ALTER TABLE "device_sessions" ADD CONSTRAINT "device_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
