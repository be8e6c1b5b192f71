-- Editing never loses an answer (docs/decisions.md "Scene versions"): a scene's content has a version,
-- each answer records the version it answered, earlier versions' content is kept, and a scene deleted
-- with answers is retired (detached from its activity, kept for its answers) instead of deleted.
ALTER TABLE "activity_scenes" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "activity_scenes" ADD COLUMN "retired_from_id" UUID;
ALTER TABLE "activity_scenes" ADD COLUMN "retired_at" TIMESTAMPTZ(3);
ALTER TABLE "activity_scenes" ALTER COLUMN "activity_id" DROP NOT NULL;
ALTER TABLE "activity_scenes" ADD CONSTRAINT "activity_scenes_retired_from_id_fkey"
  FOREIGN KEY ("retired_from_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "activity_scenes_retired_from_id_idx" ON "activity_scenes"("retired_from_id");
-- a scene belongs to its activity or is retired from it, never both nor neither
ALTER TABLE "activity_scenes" ADD CONSTRAINT "activity_scenes_retired_check"
  CHECK (("activity_id" IS NULL) = ("retired_from_id" IS NOT NULL) AND ("retired_from_id" IS NULL) = ("retired_at" IS NULL));

CREATE TABLE "scene_versions" (
  "scene_id" UUID NOT NULL,
  "version" INTEGER NOT NULL,
  "content" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "scene_versions_pkey" PRIMARY KEY ("scene_id", "version")
);
ALTER TABLE "scene_versions" ADD CONSTRAINT "scene_versions_scene_id_fkey"
  FOREIGN KEY ("scene_id") REFERENCES "activity_scenes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "responses" ADD COLUMN "scene_version" INTEGER NOT NULL DEFAULT 1;
