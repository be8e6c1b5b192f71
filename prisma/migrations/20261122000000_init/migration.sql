-- Manabiya: initial schema (hand-written; kept in step with prisma/schema.prisma
-- by tests/integration/schema-drift.integration.test.ts).

CREATE TYPE "Role" AS ENUM ('student', 'teacher', 'manager');
CREATE TYPE "GroupType" AS ENUM ('school', 'academy');
CREATE TYPE "ActorType" AS ENUM ('student', 'teacher');
CREATE TYPE "ActivityMode" AS ENUM ('standby', 'guide', 'self', 'complete');
CREATE TYPE "ActivityStatus" AS ENUM ('active', 'archived');
CREATE TYPE "SceneType" AS ENUM ('info', 'single_choice', 'multiple_choice', 'free_text', 'scale', 'two_step');
CREATE TYPE "ResponseMode" AS ENUM ('guide', 'self');

CREATE TABLE "academies" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "name_kana" TEXT NOT NULL,
    "legacy_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "academies_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "academies_legacy_id_key" ON "academies"("legacy_id");

CREATE TABLE "schools" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "academy_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "name_kana" TEXT NOT NULL,
    "legacy_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "schools_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "schools_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "schools_legacy_id_key" ON "schools"("legacy_id");
CREATE INDEX "schools_academy_id_idx" ON "schools"("academy_id");

CREATE TABLE "users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" TEXT,
    "email_verified" TIMESTAMPTZ(3),
    "role" "Role" NOT NULL,
    "group_type" "GroupType" NOT NULL,
    "school_id" UUID,
    "academy_id" UUID,
    "password_hash" TEXT,
    "name" TEXT,
    "name_kana" TEXT,
    "nickname" TEXT,
    "image" TEXT,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "legacy_id" TEXT,
    "last_sign_in_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "users_school_id_fkey" FOREIGN KEY ("school_id") REFERENCES "schools"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "users_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    -- e-mail is stored lower-cased: uniqueness is case-insensitive
    CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email")),
    -- students and teachers belong to a school, managers to an academy
    CONSTRAINT "users_group_check" CHECK (
        ("role" IN ('student', 'teacher') AND "group_type" = 'school' AND "academy_id" IS NULL)
        OR ("role" = 'manager' AND "group_type" = 'academy' AND "school_id" IS NULL)
    )
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
CREATE UNIQUE INDEX "users_legacy_id_key" ON "users"("legacy_id");
CREATE INDEX "users_school_id_role_idx" ON "users"("school_id", "role");
CREATE INDEX "users_academy_id_role_idx" ON "users"("academy_id", "role");

CREATE TABLE "student_details" (
    "user_id" UUID NOT NULL,
    "grade" INTEGER NOT NULL,
    "class_name" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "counterbalance_group" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "student_details_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "student_details_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "student_details_grade_class_name_number_idx" ON "student_details"("grade", "class_name", "number");

CREATE TABLE "accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id");
CREATE INDEX "accounts_user_id_idx" ON "accounts"("user_id");

CREATE TABLE "signin_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "code_encrypted" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "signin_codes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "signin_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "signin_codes_code_hash_key" ON "signin_codes"("code_hash");
CREATE INDEX "signin_codes_user_id_idx" ON "signin_codes"("user_id");
-- at most one live code per student
CREATE UNIQUE INDEX "signin_codes_one_live_per_user" ON "signin_codes"("user_id") WHERE "revoked_at" IS NULL;

CREATE TABLE "activity_templates" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "actor_type" "ActorType" NOT NULL,
    "content_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "activity_templates_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "template_scenes" (
    "id" TEXT NOT NULL,
    "template_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "type" "SceneType" NOT NULL,
    "content" JSONB NOT NULL,
    CONSTRAINT "template_scenes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "template_scenes_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "activity_templates"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "template_scenes_template_id_position_key" ON "template_scenes"("template_id", "position");

CREATE TABLE "activities" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "school_id" UUID NOT NULL,
    "template_id" TEXT,
    "title" TEXT NOT NULL,
    "actor_type" "ActorType" NOT NULL,
    "mode" "ActivityMode" NOT NULL DEFAULT 'standby',
    "status" "ActivityStatus" NOT NULL DEFAULT 'active',
    "version" INTEGER NOT NULL DEFAULT 1,
    "archived_at" TIMESTAMPTZ(3),
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "activities_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "activities_school_id_fkey" FOREIGN KEY ("school_id") REFERENCES "schools"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "activities_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "activity_templates"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "activities_title_check" CHECK (length(btrim("title")) > 0)
);
CREATE INDEX "activities_school_id_status_idx" ON "activities"("school_id", "status");

CREATE TABLE "activity_scenes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "activity_id" UUID NOT NULL,
    "source_scene_id" TEXT,
    "position" INTEGER NOT NULL,
    "type" "SceneType" NOT NULL,
    "content" JSONB NOT NULL,
    CONSTRAINT "activity_scenes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "activity_scenes_activity_id_fkey" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "activity_scenes_activity_id_position_idx" ON "activity_scenes"("activity_id", "position");

CREATE TABLE "activity_scene_orders" (
    "activity_id" UUID NOT NULL,
    "group" TEXT NOT NULL,
    "scene_ids" UUID[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "activity_scene_orders_pkey" PRIMARY KEY ("activity_id", "group"),
    CONSTRAINT "activity_scene_orders_activity_id_fkey" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "guide_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "activity_id" UUID NOT NULL,
    "started_by_id" UUID,
    "current_scene_id" UUID,
    "version" INTEGER NOT NULL DEFAULT 1,
    "show_results" BOOLEAN NOT NULL DEFAULT false,
    "show_names" BOOLEAN NOT NULL DEFAULT false,
    "locked_scene_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    CONSTRAINT "guide_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "guide_sessions_activity_id_fkey" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "guide_sessions_started_by_id_fkey" FOREIGN KEY ("started_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "guide_sessions_activity_id_ended_at_idx" ON "guide_sessions"("activity_id", "ended_at");
-- at most one running session per activity
CREATE UNIQUE INDEX "guide_sessions_one_running" ON "guide_sessions"("activity_id") WHERE "ended_at" IS NULL;

CREATE TABLE "responses" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "activity_id" UUID NOT NULL,
    "scene_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "answer" JSONB NOT NULL,
    "scene_position" INTEGER NOT NULL,
    "counterbalance_group" TEXT,
    "mode" "ResponseMode" NOT NULL,
    "session_id" UUID,
    "client_revision" INTEGER NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "responses_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "responses_activity_id_fkey" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "responses_scene_id_fkey" FOREIGN KEY ("scene_id") REFERENCES "activity_scenes"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "responses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "responses_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "guide_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "responses_user_id_scene_id_key" ON "responses"("user_id", "scene_id");
CREATE INDEX "responses_activity_id_scene_id_idx" ON "responses"("activity_id", "scene_id");
CREATE INDEX "responses_session_id_idx" ON "responses"("session_id");

CREATE TABLE "audit_logs" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_id" UUID,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "school_id" UUID,
    "academy_id" UUID,
    "ip" TEXT,
    "meta" JSONB,
    CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_logs_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "audit_logs_school_id_at_idx" ON "audit_logs"("school_id", "at");
CREATE INDEX "audit_logs_actor_id_at_idx" ON "audit_logs"("actor_id", "at");
