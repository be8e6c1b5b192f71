-- Pacing in self mode: students reach only the first N scenes of their order until the teacher opens more;
-- null: every scene (docs/decisions.md "Pacing in self mode").
ALTER TABLE "activities" ADD COLUMN "self_open_scenes" INTEGER;
