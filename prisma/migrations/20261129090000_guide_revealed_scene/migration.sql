-- The scene whose correct answer the teacher has shown the class (「正解を見せる」): the current scene is revealed
-- while this names it, so the next scene starts unrevealed; null: nothing shown.
ALTER TABLE "guide_sessions" ADD COLUMN "revealed_scene_id" UUID;
