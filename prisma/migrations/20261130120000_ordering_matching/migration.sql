-- 並べ替え and 線でつなぐ scenes (features/scenes/shared/ordering.ts, matching.ts)
ALTER TYPE "SceneType" ADD VALUE 'ordering';
ALTER TYPE "SceneType" ADD VALUE 'matching';
