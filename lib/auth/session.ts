import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db";
import { auth } from "./config";
import { homeOf, type Role } from "./roles";

/** The signed-in person as the database says now (a JWT can be stale). */
export interface Actor {
  id: string;
  role: Role;
  email: string | null;
  name: string | null;
  nameKana: string | null;
  nickname: string | null;
  schoolId: string | null;
  academyId: string | null;
  school: { name: string; nameKana: string } | null;
  academy: { name: string; nameKana: string } | null;
}

/** null when nobody is signed in. `disabled` when the account was disabled since sign-in. */
export const getActor = cache(async (): Promise<Actor | null | "disabled"> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const user = await db().user.findUnique({
    where: { id },
    select: {
      id: true, role: true, email: true, name: true, nameKana: true, nickname: true, disabled: true,
      schoolId: true, academyId: true,
      school: { select: { name: true, nameKana: true } },
      academy: { select: { name: true, nameKana: true } },
    },
  });
  if (!user) return null;
  if (user.disabled) return "disabled";
  const { disabled: _disabled, ...actor } = user;
  return actor;
});

/** The path the proxy saw, for `from` (set by proxy.ts). */
async function currentPath(): Promise<string> {
  return (await headers()).get("x-manabiya-path") ?? "/";
}

/**
 * Layout and page guard (GUIDE.md layer 2/3): no user → /signin?from=…;
 * disabled → signed out; another role → that role's home.
 */
export async function requireRole(role: Role): Promise<Actor> {
  const actor = await getActor();
  if (actor === "disabled") redirect("/auth/ended?reason=userDisabled");
  if (!actor) redirect(`/signin?from=${encodeURIComponent(await currentPath())}`);
  if (actor.role !== role) redirect(homeOf(actor.role));
  return actor;
}
