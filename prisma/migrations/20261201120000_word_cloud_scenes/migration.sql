-- Word cloud (ことばの雲) scenes (issue #41 point 3): content and answers as JSON like every other scene
-- (features/scenes/shared/word-cloud.ts). The words the teacher hides from the class, per session: scene id →
-- the hidden words' keys (features/play/server/session-commands.ts setWordHidden). Additive.
ALTER TYPE "SceneType" ADD VALUE IF NOT EXISTS 'word_cloud';
ALTER TABLE "guide_sessions" ADD COLUMN "hidden_words" JSONB NOT NULL DEFAULT jsonb_build_object();
