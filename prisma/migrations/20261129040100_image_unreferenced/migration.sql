-- When the clean-up (lib/images/cleanup.ts) first found an image placed in no scene, version or
-- library entry; null while some content places it. An image unreferenced for the grace period
-- is removed, and bytes no image names any more with it.
ALTER TABLE "images" ADD COLUMN "unreferenced_since" TIMESTAMPTZ(3);
