import { z } from "zod";
import { sceneSchema } from "@/lib/scenes/schema";

/** A template content file (prisma/content/templates/*.json). */
export const templateFileSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{3,64}$/),
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(2000),
  actorType: z.enum(["student", "teacher"]),
  scenes: z
    .array(z.intersection(z.object({ id: z.string().regex(/^[a-z0-9-]{1,64}$/) }), sceneSchema))
    .min(1)
    .max(100)
    .refine((s) => new Set(s.map((x) => x.id)).size === s.length, "scene ids must be unique"),
});
export type TemplateFile = z.infer<typeof templateFileSchema>;
