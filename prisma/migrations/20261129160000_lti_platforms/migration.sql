-- An academy's LTI 1.3 platform (a 学習eポータル; features/lti): issuer, client id, the deployments it may launch, its
-- OIDC login (auth), token and JWKS URLs, and the claim carrying the users sourcedId. One per academy; an issuer and
-- client id name one platform.
CREATE TABLE "lti_platforms" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "academy_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "deployment_ids" TEXT[] NOT NULL,
    "auth_login_url" TEXT NOT NULL,
    "token_url" TEXT NOT NULL,
    "jwks_url" TEXT NOT NULL,
    "identity_claim" TEXT NOT NULL DEFAULT 'sub',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lti_platforms_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "lti_platforms_academy_id_key" ON "lti_platforms"("academy_id");
CREATE UNIQUE INDEX "lti_platforms_issuer_client_id_key" ON "lti_platforms"("issuer", "client_id");
ALTER TABLE "lti_platforms" ADD CONSTRAINT "lti_platforms_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The tool's signing keys: the private key sealed (AES-256-GCM under a key derived from SIGNIN_CODE_KEY); one current
-- key (retired_at null), retired ones published a while longer.
CREATE TABLE "lti_keys" (
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_key_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "lti_keys_pkey" PRIMARY KEY ("kid")
);

CREATE UNIQUE INDEX "lti_keys_one_current" ON "lti_keys" ((true)) WHERE "retired_at" IS NULL;

-- A login initiation waiting for its launch (state by its SHA-256, nonce): deleted when used, minutes long.
CREATE TABLE "lti_launch_states" (
    "state_hash" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "platform_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lti_launch_states_pkey" PRIMARY KEY ("state_hash")
);

CREATE INDEX "lti_launch_states_expires_at_idx" ON "lti_launch_states"("expires_at");
ALTER TABLE "lti_launch_states" ADD CONSTRAINT "lti_launch_states_platform_id_fkey" FOREIGN KEY ("platform_id") REFERENCES "lti_platforms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
