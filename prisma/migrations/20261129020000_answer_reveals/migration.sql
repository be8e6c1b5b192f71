-- When the verdict or answer key of an answer was first shown to its respondent (their result page):
-- from then on the answer is final (lib/responses/writer-sql.ts refuses a save that would change it).
ALTER TABLE "responses" ADD COLUMN "revealed_at" TIMESTAMPTZ(3);
