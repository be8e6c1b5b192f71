-- Image bytes are stored once per content: "image_contents" is keyed by the SHA-256 of the
-- stored (re-encoded) bytes, which every "images" row already records. A school's image, an
-- upload of the same picture by another school and a library copy into another school are
-- rows of their own (the access check reads the row's school) that share one copy of the bytes.
-- Bytes no row names any more are removed by the clean-up (lib/images/cleanup.ts).
CREATE TABLE "image_contents" (
    "sha256" TEXT NOT NULL,
    "data" BYTEA NOT NULL,
    CONSTRAINT "image_contents_pkey" PRIMARY KEY ("sha256")
);

INSERT INTO "image_contents" ("sha256", "data")
SELECT DISTINCT ON (i."sha256") i."sha256", b."data"
  FROM "images" i JOIN "image_blobs" b ON b."id" = i."id"
 ORDER BY i."sha256", i."created_at";

DROP TABLE "image_blobs";

CREATE INDEX "images_sha256_idx" ON "images"("sha256");
