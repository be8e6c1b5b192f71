"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { audit } from "@/platform/audit/log";
import { fail, ok } from "@/platform/errors";
import { defineAction } from "@/platform/http/action";
import { requestClient } from "@/platform/security/client-ip";
import type { Actor } from "./session";
import { currentDeviceId } from "./session";
import { endDeviceSessions } from "./device-session-commands";

/** The ended devices in the person's sign-in log (shown as sign-outs, with the address that ended them). */
async function logEnded(actor: Actor, ids: string[]) {
  const client = requestClient(await headers());
  for (const id of ids)
    await audit({
      action: "signout.device",
      actorId: actor.id,
      schoolId: actor.schoolId,
      academyId: actor.academyId,
      targetType: "device_session",
      targetId: id,
      ...client,
    });
}

/** A teacher or manager signs out one of their other devices (this one: the sign-out button). */
export const endDeviceSessionAction = defineAction({
  name: "endDeviceSession",
  schema: z.object({ sessionId: z.uuid() }),
  roles: ["teacher", "manager"],
  run: async ({ sessionId }, actor) => {
    if (sessionId === (await currentDeviceId())) return fail("VALIDATION");
    const ended = await endDeviceSessions(actor.id, { only: sessionId });
    if (ended.length === 0) return fail("NOT_FOUND");
    await logEnded(actor, ended);
    return ok({ ended: ended.length });
  },
});

/** A teacher or manager signs out every device of theirs but this one. */
export const endOtherDeviceSessionsAction = defineAction({
  name: "endOtherDeviceSessions",
  schema: z.object({}),
  roles: ["teacher", "manager"],
  run: async (_input, actor) => {
    const ended = await endDeviceSessions(actor.id, { keep: await currentDeviceId() });
    await logEnded(actor, ended);
    return ok({ ended: ended.length });
  },
});
