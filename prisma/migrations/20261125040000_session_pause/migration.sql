-- "Eyes on me": the teacher blanks every student screen of a live session and brings them back
-- (docs/product-design.md "Live session").
ALTER TABLE "guide_sessions" ADD COLUMN "paused" BOOLEAN NOT NULL DEFAULT false;
