-- An academy's own OpenID Connect provider (a 学習eポータル acting as identity provider, a board's Keycloak): its
-- sign-in button shows on /signin?academy=<slug>, next-auth's provider id and callback are "oidc-<slug>". The client
-- secret is stored sealed (AES-256-GCM, platform/auth/secret-box.ts) and never sent to a browser. `identity_claim`
-- names who signs in: "email" (a verified e-mail), "sub", or another claim, both matched to the roster's
-- userMasterIdentifier. Only the roles in `allowed_roles` sign in through it.
CREATE TABLE "academy_oidc_providers" (
  "academy_id" UUID NOT NULL,
  "slug" TEXT NOT NULL,
  "display_name" TEXT NOT NULL,
  "issuer" TEXT NOT NULL,
  "client_id" TEXT NOT NULL,
  "client_secret_sealed" TEXT NOT NULL,
  "identity_claim" TEXT NOT NULL,
  "allowed_roles" TEXT[] NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "academy_oidc_providers_pkey" PRIMARY KEY ("academy_id"),
  CONSTRAINT "academy_oidc_providers_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE,
  CONSTRAINT "academy_oidc_providers_slug_check" CHECK ("slug" ~ '^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$'),
  CONSTRAINT "academy_oidc_providers_display_name_check" CHECK (char_length("display_name") BETWEEN 1 AND 60),
  CONSTRAINT "academy_oidc_providers_issuer_check" CHECK ("issuer" ~ '^https?://' AND char_length("issuer") <= 300),
  CONSTRAINT "academy_oidc_providers_client_id_check" CHECK (char_length("client_id") BETWEEN 1 AND 300),
  CONSTRAINT "academy_oidc_providers_identity_claim_check" CHECK ("identity_claim" ~ '^[A-Za-z_][A-Za-z0-9_.:/-]{0,99}$'),
  CONSTRAINT "academy_oidc_providers_allowed_roles_check"
    CHECK (cardinality("allowed_roles") > 0 AND "allowed_roles" <@ ARRAY['student', 'teacher', 'manager']::TEXT[])
);
CREATE UNIQUE INDEX "academy_oidc_providers_slug_key" ON "academy_oidc_providers"("slug");
