import { z } from "zod";
import { guideRef } from "@/lib/live/schema";

/** Open a projector link / revoke the session's links: the guide screen's activity (and school, for a manager). */
export const projectorRef = guideRef;
/** Star (or unstar) one answer of the running session for the projector. */
export const starInput = guideRef.extend({ responseId: z.uuid(), starred: z.boolean() });
