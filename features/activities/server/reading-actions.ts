"use server";
import { z } from "zod";
import { defineSchoolAction } from "@/features/people/server/school-action";
import { listedWord, readingInput } from "../shared/school-readings";
import { correctSchoolReading, deleteSchoolReading } from "./furigana-word-commands";

/** The school's readings page (features/activities/README.md "Furigana"): the school's teachers, or a manager naming one of the academy's schools. */
const STAFF = ["teacher", "manager"] as const;
const revalidate = ["/dashboard/teacher/readings", "/dashboard/manager/schools"];
const word = z.object({ schoolId: z.uuid().optional(), base: listedWord });

/** Removes a word from the school's list: the next furigana proposals read it as the dictionary does. */
export const deleteSchoolReadingAction = defineSchoolAction({
  name: "readings.delete",
  schema: word,
  roles: STAFF,
  revalidate,
  run: (ctx, i) => deleteSchoolReading(ctx.schoolId, i.base),
});

/** Gives a word of the school's list another reading (kana only, kept in hiragana). */
export const correctSchoolReadingAction = defineSchoolAction({
  name: "readings.correct",
  schema: word.extend({ reading: readingInput }),
  roles: STAFF,
  revalidate,
  run: (ctx, i) => correctSchoolReading(ctx, i.base, i.reading),
});
