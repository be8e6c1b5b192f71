-- A deep linking request (LTI Deep Linking 2.0; features/lti) waiting for its teacher's pick: the pick's secret by its
-- SHA-256, the teacher, the platform and deployment, the return URL and the platform's opaque data; deleted when
-- used, minutes long.
CREATE TABLE "lti_deep_link_requests" (
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "platform_id" UUID NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "return_url" TEXT NOT NULL,
    "data" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lti_deep_link_requests_pkey" PRIMARY KEY ("token_hash")
);

CREATE INDEX "lti_deep_link_requests_expires_at_idx" ON "lti_deep_link_requests"("expires_at");
ALTER TABLE "lti_deep_link_requests" ADD CONSTRAINT "lti_deep_link_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "lti_deep_link_requests" ADD CONSTRAINT "lti_deep_link_requests_platform_id_fkey" FOREIGN KEY ("platform_id") REFERENCES "lti_platforms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
