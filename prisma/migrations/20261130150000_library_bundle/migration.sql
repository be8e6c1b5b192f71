-- The bundled library (issue #41 point 6): ready activities written by us
-- (prisma/content/library/*.json) are published into every academy's library.
-- An entry made from one names it in "bundle_id"; "library_bundle_loads"
-- remembers which files an academy has received, so loading again (every start,
-- a new academy) adds only what it has never had: a file is never added twice,
-- and an entry the academy's manager withdrew does not come back.
ALTER TABLE "library_entries" ADD COLUMN "bundle_id" TEXT;

CREATE TABLE "library_bundle_loads" (
    "academy_id" UUID NOT NULL,
    "bundle_id" TEXT NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "library_bundle_loads_pkey" PRIMARY KEY ("academy_id", "bundle_id"),
    CONSTRAINT "library_bundle_loads_academy_id_fkey" FOREIGN KEY ("academy_id") REFERENCES "academies"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
