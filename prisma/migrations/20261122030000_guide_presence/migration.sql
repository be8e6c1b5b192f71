-- Who is following a live (guide) session: each open stream or poll of a
-- student refreshes seen_at; "connected" counts rows seen in the last 35 s.
-- Kept in the database (not in memory) so that every app instance counts
-- the students connected to every other.
CREATE TABLE "guide_presence" (
    "session_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "guide_presence_pkey" PRIMARY KEY ("session_id", "user_id"),
    CONSTRAINT "guide_presence_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "guide_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "guide_presence_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "guide_presence_session_id_seen_at_idx" ON "guide_presence"("session_id", "seen_at");
