import { z } from "zod";

/** A class's new 組 in the next grade (grade + 組 now → 組 next year); classes not named keep their 組. */
export const classMove = z.object({
  grade: z.int().min(1).max(12),
  className: z.string().trim().min(1).max(10),
  to: z.string().trim().min(1).max(10),
});
export type ClassMove = z.infer<typeof classMove>;

export const rolloverInput = z.object({
  schoolId: z.uuid(),
  /** The year the manager saw in the preview: the version check (applying twice or at once advances once). */
  expectedYear: z.int().min(2000).max(2100),
  /** The school's top grade, confirmed in the preview: its students graduate. */
  topGrade: z.int().min(1).max(12),
  classMoves: z.array(classMove).max(200).default([]),
  /** The school's name as the manager typed it: needed when anyone graduates (features/rostering/server/rollover-commands.ts). */
  confirmName: z.string().max(200).optional(),
});
export type RolloverInput = z.infer<typeof rolloverInput>;
