import { z } from "zod";

/** The guide-screen actions' inputs (lib/live/actions.ts): an activity, and the school when a manager acts. */
export const guideRef = z.object({ schoolId: z.uuid().optional(), activityId: z.uuid() });
/** "Next scene" (the server action and the production server's endpoint, lib/live/advance-endpoint.ts). */
export const goToSceneInput = guideRef.extend({ sceneId: z.uuid() });
export type GoToSceneInput = z.infer<typeof goToSceneInput>;
