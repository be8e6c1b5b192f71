-- A drawing / handwriting scene (issue #20 point 2): the student draws on a
-- canvas; the answer is strokes as data (lib/drawing/limits.ts) in
-- responses.answer like every other answer. Additive: a new enum value, not
-- used in this migration (PostgreSQL allows ADD VALUE in a transaction but
-- not its use before the commit).
ALTER TYPE "SceneType" ADD VALUE IF NOT EXISTS 'drawing';
