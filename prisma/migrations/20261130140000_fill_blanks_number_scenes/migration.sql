-- Fill-in-the-blanks (穴埋め) and number (数値) scenes (issue #41 point 3): content
-- and answers as JSON like every other scene (features/scenes/shared/fill-blanks.ts,
-- number-answer.ts). Additive: new enum values, not used in this migration.
ALTER TYPE "SceneType" ADD VALUE IF NOT EXISTS 'fill_blanks';
ALTER TYPE "SceneType" ADD VALUE IF NOT EXISTS 'number';
