-- The 学習指導要領コード (issue #39 point 6): MEXT's 16-digit curriculum code on an
-- activity and on each scene (the scene's wins over the activity's in the xAPI
-- statements); null: none set. The database refuses anything but 16 digits.
ALTER TABLE "activities" ADD COLUMN "curriculum_code" TEXT;
ALTER TABLE "activities" ADD CONSTRAINT "activities_curriculum_code_check"
    CHECK ("curriculum_code" ~ '^[0-9]{16}$');
ALTER TABLE "activity_scenes" ADD COLUMN "curriculum_code" TEXT;
ALTER TABLE "activity_scenes" ADD CONSTRAINT "activity_scenes_curriculum_code_check"
    CHECK ("curriculum_code" ~ '^[0-9]{16}$');

-- The academies with statements waiting (features/lti/server/lrs-queries.ts
-- academiesWaiting, every 30 s): `select distinct academy_id … where state = 'waiting'`
-- reads this index alone.
CREATE INDEX "xapi_statements_state_academy_id_idx" ON "xapi_statements"("state", "academy_id");
