-- The OneRoster Japan profile of the academy's last applied set ("1.2", "1.2.1" or "1.2_JP";
-- lib/oneroster/columns.ts ROSTER_PROFILES): the export writes it unless told another
-- (docs/oneroster.md "Profiles").
ALTER TABLE "academies" ADD COLUMN "roster_profile" TEXT;
