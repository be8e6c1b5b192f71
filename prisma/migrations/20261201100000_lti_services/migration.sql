-- LTI Assignment and Grade Services and Names and Role Provisioning (issue #39 point 4):
-- "lti_service_links" keeps what a resource link launch said about the platform's
-- services for one person, activity and link (the launch's sub, the context, the
-- line item and its scopes, the membership URL); "lti_scores" the newest score
-- for a link's line item, waiting to be posted, sent, failed or parked.
CREATE TABLE "lti_service_links" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "platform_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "activity_id" UUID NOT NULL,
    "resource_link_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "context_id" TEXT,
    "lineitem" TEXT,
    "ags_scopes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "memberships_url" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "lti_service_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "lti_service_links_platform_id_fkey" FOREIGN KEY ("platform_id") REFERENCES "lti_platforms"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "lti_service_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "lti_service_links_user_id_activity_id_resource_link_id_key" ON "lti_service_links"("user_id", "activity_id", "resource_link_id");
CREATE INDEX "lti_service_links_activity_id_idx" ON "lti_service_links"("activity_id");

CREATE TABLE "lti_scores" (
    "link_id" UUID NOT NULL,
    "score_given" DOUBLE PRECISION,
    "score_maximum" DOUBLE PRECISION,
    "grading_progress" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'waiting',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    CONSTRAINT "lti_scores_pkey" PRIMARY KEY ("link_id"),
    CONSTRAINT "lti_scores_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "lti_service_links"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "lti_scores_state_idx" ON "lti_scores"("state");
