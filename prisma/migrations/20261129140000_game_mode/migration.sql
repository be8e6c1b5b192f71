-- Game mode (a review lesson played for points): chosen when the session starts. `game_teams`: the leaderboard also
-- totals teams (the classes of a whole-school session, the counterbalance groups of a class's); `game_names`: the
-- projector names the players instead of their nicknames; `game_board`: what the projector shows between questions
-- ('ranking' or 'podium'; null: the scene). `scene_starts`: when each scene first became current in the session
-- (scene id → timestamp), the start of its answers' speed points.
ALTER TABLE "guide_sessions"
  ADD COLUMN "game" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "game_teams" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "game_names" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "game_board" TEXT CHECK ("game_board" IN ('ranking', 'podium')),
  ADD COLUMN "scene_starts" JSONB NOT NULL DEFAULT jsonb_build_object();
