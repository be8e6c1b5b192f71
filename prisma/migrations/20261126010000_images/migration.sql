-- Images in scenes and options (issue #20 point 6; docs/architecture.md "Images"). An image
-- belongs to one school: "images" holds what the access check and the page need (school,
-- type, size, content hash for the ETag), "image_blobs" the re-encoded bytes, written and
-- read only through the storage interface (lib/images/storage.ts), so that the bytes could
-- move to S3-compatible storage without touching the rest. Rows are never updated: a
-- replaced image is a new row, so /api/v1/images/{id} can be cached as immutable.
-- Foreign keys are kept in SQL only (no Prisma relation fields): deleting a school deletes
-- its images and their bytes.
CREATE TABLE "images" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "school_id" UUID NOT NULL,
    "content_type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "images_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "images_school_id_fkey" FOREIGN KEY ("school_id") REFERENCES "schools"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "images_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "images_content_type_check" CHECK ("content_type" IN ('image/png', 'image/jpeg', 'image/webp')),
    CONSTRAINT "images_size_check" CHECK ("width" > 0 AND "height" > 0 AND "byte_size" > 0)
);
CREATE INDEX "images_school_id_idx" ON "images"("school_id");

CREATE TABLE "image_blobs" (
    "id" UUID NOT NULL,
    "data" BYTEA NOT NULL,
    CONSTRAINT "image_blobs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "image_blobs_id_fkey" FOREIGN KEY ("id") REFERENCES "images"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
