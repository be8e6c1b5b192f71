import "server-only";
import { db } from "@/platform/db";

/** Stores a UUID v4 for every school, person and 組 of these schools that has none yet (one statement each). */
export async function assignIds(schoolIds: string[]) {
  await db().$transaction([
    db()
      .$executeRaw`UPDATE "schools" SET "sourced_id" = gen_random_uuid()::text WHERE "id" = ANY(${schoolIds}::uuid[]) AND "sourced_id" IS NULL`,
    db()
      .$executeRaw`UPDATE "users" SET "sourced_id" = COALESCE("sourced_id", gen_random_uuid()::text), "user_master_identifier" = COALESCE("user_master_identifier", gen_random_uuid()::text)
      WHERE "school_id" = ANY(${schoolIds}::uuid[]) AND "role" IN ('student', 'teacher') AND ("sourced_id" IS NULL OR "user_master_identifier" IS NULL)`,
    // a 組 students carry that no roster class names yet: one row per (school, grade, 組)
    db()
      .$executeRaw`INSERT INTO "roster_classes" ("school_id", "sourced_id", "title", "grade_code", "grade", "class_name")
      SELECT DISTINCT ON (sd."school_id", sd."grade", sd."class_name") sd."school_id", gen_random_uuid()::text, sd."grade" || '年' || sd."class_name" || '組',
        (CASE WHEN s."name" LIKE '%小学校%' THEN 'P' WHEN s."name" LIKE '%高等学校%' OR s."name" LIKE '%高校%' THEN 'H' ELSE 'J' END) || sd."grade", sd."grade", sd."class_name"
      FROM "student_details" sd JOIN "schools" s ON s."id" = sd."school_id" JOIN "users" u ON u."id" = sd."user_id"
      WHERE sd."school_id" = ANY(${schoolIds}::uuid[]) AND sd."grade" IS NOT NULL AND sd."class_name" IS NOT NULL AND NOT u."disabled"
        AND NOT EXISTS (SELECT 1 FROM "roster_classes" rc WHERE rc."school_id" = sd."school_id" AND rc."grade" = sd."grade" AND rc."class_name" = sd."class_name")`,
  ]);
}

/** Stores the course and 年度 ids a 組 is exported with. */
export async function storeClassSourcedIds(classId: string, courseSourcedId: string, termSourcedId: string) {
  await db().rosterClass.update({
    where: { id: classId },
    data: { courseSourcedId, termSourcedId },
    select: { id: true },
  });
}
