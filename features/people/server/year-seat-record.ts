import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";

/**
 * Records, in the caller's transaction, the seat every student of the school still at school holds
 * in `year` (the year-end rollover's year that ends, before anyone moves): past years' answers are
 * then listed at that year's seat (features/people/server/year-seat.ts). A row already there is replaced.
 */
export async function recordYearSeats(
  tx: Prisma.TransactionClient,
  schoolId: AuthorizedSchoolId,
  year: number,
): Promise<number> {
  return tx.$executeRaw`
    insert into student_year_seats (user_id, academic_year, grade, class_name, number)
    select sd.user_id, ${year}::int, sd.grade, sd.class_name, sd.number
    from student_details sd join users u on u.id = sd.user_id and u.role = 'student'
    where sd.school_id = ${schoolId}::uuid and sd.graduated_year is null
      and (sd.grade is not null or sd.class_name is not null or sd.number is not null)
    on conflict (user_id, academic_year) do update set grade = excluded.grade, class_name = excluded.class_name, number = excluded.number`;
}
