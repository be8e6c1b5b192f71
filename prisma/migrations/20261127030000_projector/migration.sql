-- The projector view (docs/decisions.md "Projector links"): a read-only link per running session,
-- its token stored hashed (sha-256, like password reset tokens); answers the teacher stars to discuss;
-- the projector's "starred only" switch.
CREATE TABLE "projector_links" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "session_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "projector_links_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "projector_links_token_hash_key" ON "projector_links"("token_hash");
CREATE INDEX "projector_links_session_id_idx" ON "projector_links"("session_id");
ALTER TABLE "projector_links" ADD CONSTRAINT "projector_links_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "guide_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "projector_links" ADD CONSTRAINT "projector_links_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "projector_stars" (
    "session_id" UUID NOT NULL,
    "response_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "projector_stars_pkey" PRIMARY KEY ("session_id","response_id")
);
ALTER TABLE "projector_stars" ADD CONSTRAINT "projector_stars_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "guide_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "projector_stars" ADD CONSTRAINT "projector_stars_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "responses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "guide_sessions" ADD COLUMN "starred_only" BOOLEAN NOT NULL DEFAULT false;
