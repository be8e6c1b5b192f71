"use server";
import type { ActionResult } from "@/platform/errors";
import { defineAcademyAction, defineSchoolAction } from "@/features/people/server/school-action";
import { copyEntry, publishActivity, setEntryTags, withdrawEntry } from "./library-commands";
import { copyEntrySchema, entryRefSchema, entryTagsSchema, publishSchema } from "../shared/library-schema";

const REVALIDATE = ["/dashboard/teacher", "/dashboard/manager"];

/** Publish a school's activity to the academy library: managers only (docs/product-design.md "The academy library"). */
export const publishActivityAction = defineSchoolAction({
  name: "library.publish",
  schema: publishSchema,
  roles: ["manager"],
  revalidate: REVALIDATE,
  run: (ctx, i) => publishActivity(ctx, i),
});

/** Copy an entry into a school: a teacher into their own, a manager into a school of the academy. */
export const copyLibraryEntryAction = defineSchoolAction({
  name: "library.copy",
  schema: copyEntrySchema,
  roles: ["teacher", "manager"],
  revalidate: REVALIDATE,
  run: (ctx, i) => copyEntry(ctx, { entryId: i.entryId, title: i.title }),
});

/** Withdraw an entry of the academy, or change its tags: the academy's managers. */
export const withdrawEntryAction = defineAcademyAction({
  name: "library.withdraw",
  schema: entryRefSchema,
  revalidate: REVALIDATE,
  run: (ctx, i) => withdrawEntry(ctx, i.entryId),
});
export const setEntryTagsAction = defineAcademyAction({
  name: "library.tags",
  schema: entryTagsSchema,
  revalidate: REVALIDATE,
  run: (ctx, i) => setEntryTags(ctx, i.entryId, i),
});

/** The forms (they work before hydration too): FormData in, the action's result out. */
const field = (form: FormData, name: string) => (form.get(name) ?? undefined) as string | undefined;
const tagsOf = (form: FormData) => ({
  subject: field(form, "subject") ?? "",
  grade: field(form, "grade") ?? "",
  unit: field(form, "unit") ?? "",
});
export async function publishActivityFromForm(
  _prev: ActionResult<{ id: string; republished: boolean }> | null,
  form: FormData,
) {
  return publishActivityAction({
    schoolId: field(form, "schoolId"),
    activityId: field(form, "activityId"),
    ...tagsOf(form),
  });
}
export async function copyLibraryEntryFromForm(
  _prev: ActionResult<{ id: string; title: string }> | null,
  form: FormData,
) {
  return copyLibraryEntryAction({
    entryId: field(form, "entryId"),
    title: field(form, "title") ?? "",
    ...(form.get("schoolId") ? { schoolId: field(form, "schoolId") } : {}),
  });
}
export async function setEntryTagsFromForm(_prev: ActionResult<null> | null, form: FormData) {
  return setEntryTagsAction({ entryId: field(form, "entryId"), ...tagsOf(form) });
}
