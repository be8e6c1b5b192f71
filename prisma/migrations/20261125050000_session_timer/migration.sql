-- The teacher's countdown for the current scene of a live session, and the answers that came after it
-- (docs/product-design.md "Live (guide) sessions": a late answer is kept and marked, never thrown away).
ALTER TABLE "guide_sessions" ADD COLUMN "timer_scene_id" UUID;
ALTER TABLE "guide_sessions" ADD COLUMN "timer_ends_at" TIMESTAMPTZ(3);
ALTER TABLE "guide_sessions" ADD COLUMN "timer_seconds" INTEGER;
ALTER TABLE "guide_sessions" ADD COLUMN "timer_locks" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "responses" ADD COLUMN "late" BOOLEAN NOT NULL DEFAULT false;
