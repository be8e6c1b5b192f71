import { z } from "zod";
import { sessionRef } from "@/features/play/shared/schema";

/** How many projector links a session may have open at once (a classroom has a screen or two). */
export const MAX_PROJECTOR_LINKS = 3;

/** Open a projector link / revoke the session's links: the guide screen's activity (and school, for a manager). */
export const projectorRef = sessionRef;
/** Star (or unstar) one answer of the running session for the projector. */
export const starInput = sessionRef.extend({ responseId: z.uuid(), starred: z.boolean() });
