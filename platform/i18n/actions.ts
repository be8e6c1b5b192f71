"use server";
import { z } from "zod";
import { defineAction } from "@/platform/http/action";
import { ROLES } from "@/platform/auth/roles";
import { DISPLAY_LANGUAGES } from "./languages";
import { saveOwnLanguage } from "./commands";

/** The language switcher, signed in: the choice is kept on the person's record too (the cookie is set by the page). */
export const saveOwnLanguageAction = defineAction({
  name: "i18n.saveOwnLanguage",
  schema: z.object({ language: z.enum(DISPLAY_LANGUAGES) }),
  roles: ROLES,
  run: (input, actor) => saveOwnLanguage(actor.id, input.language),
});
