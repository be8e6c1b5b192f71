-- When students see whether their answers were correct (issue #20 point 8):
-- after each answer, at the end (their result page), or never (the default, so
-- every existing activity keeps showing no marks). Additive.
CREATE TYPE "ActivityFeedback" AS ENUM ('never', 'after_answer', 'at_end');
ALTER TABLE "activities" ADD COLUMN "feedback" "ActivityFeedback" NOT NULL DEFAULT 'never';
