import "server-only";
import { MEMBERS_SCOPE, MEMBERS_TYPE } from "@/features/lti/shared/claims";
import { classOfContext, classStudents, type MembershipLink, membershipLinkOf } from "./members-queries";
import { acceptedOrThrow, platformToken, ServiceRefused, serviceFetch } from "./platform-token";

/**
 * Names and Role Provisioning Services 2.0 (features/lti/README.md "Scores and members"): a teacher who launched into
 * an activity from a context naming its members compares them with our class — the school's roster class whose
 * sourcedId is the context's id — by the people's sourcedIds: the context's learners we do not have in the class, and
 * the class's students the context does not list. The membership container is read page by page (`Link: rel="next"`),
 * at most MAX_PAGES.
 */
const MAX_PAGES = 20;
const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";

export type MembersRefusal = "noLink" | "noClass" | "refused" | "unavailable" | "tooMany";

export interface Person {
  sourcedId: string;
  name: string | null;
}

export type MembersComparison =
  | { ok: true; className: string; matched: number; portalOnly: Person[]; oursOnly: Person[] }
  | { ok: false; reason: MembersRefusal };

interface Member {
  user_id?: unknown;
  lis_person_sourcedid?: unknown;
  name?: unknown;
  roles?: unknown;
  status?: unknown;
}

/** The `rel="next"` URL of a Link header (RFC 8288), or null. */
export function nextLink(header: string | null): string | null {
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]+)>\s*;(.*)$/.exec(part.trim());
    if (match && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2]!)) return match[1]!;
  }
  return null;
}

async function readMembers(link: MembershipLink): Promise<Member[] | "tooMany"> {
  const token = await platformToken(link.platform, [MEMBERS_SCOPE]);
  const members: Member[] = [];
  let url: string | null = link.membershipsUrl!;
  for (let page = 0; url; page++) {
    if (page === MAX_PAGES) return "tooMany";
    const res = await serviceFetch(url, { headers: { authorization: `Bearer ${token}`, accept: MEMBERS_TYPE } });
    await acceptedOrThrow(res);
    const body = (await res.json().catch(() => null)) as { members?: unknown } | null;
    if (!Array.isArray(body?.members)) throw new ServiceRefused(`${res.status} no members`);
    members.push(...(body.members as Member[]));
    url = nextLink(res.headers.get("link"));
  }
  return members;
}

/** The context's active learners, by sourcedId (the `sub` the launches carry, or lis_person_sourcedid). */
function learners(members: Member[], identityClaim: string): Person[] {
  return members
    .filter((m) => Array.isArray(m.roles) && m.roles.includes(LEARNER) && (m.status ?? "Active") === "Active")
    .map((m) => ({
      sourcedId: String((identityClaim === "sub" ? m.user_id : (m.lis_person_sourcedid ?? m.user_id)) ?? ""),
      name: typeof m.name === "string" ? m.name : null,
    }))
    .filter((p) => p.sourcedId !== "")
    .map((p) => ({ ...p, sourcedId: p.sourcedId.toLowerCase() }));
}

/** The teacher's comparison of the context they launched from with our class, or why there is none. */
export async function compareMembers(userId: string, schoolId: string, activityId: string): Promise<MembersComparison> {
  const link = await membershipLinkOf(userId, activityId);
  if (!link?.contextId) return { ok: false, reason: "noLink" };
  const rosterClass = await classOfContext(schoolId, link.contextId);
  if (!rosterClass?.grade) return { ok: false, reason: "noClass" };
  let members: Member[] | "tooMany";
  try {
    members = await readMembers(link);
  } catch (error) {
    return { ok: false, reason: error instanceof ServiceRefused ? "refused" : "unavailable" };
  }
  if (members === "tooMany") return { ok: false, reason: "tooMany" };
  const portal = learners(members, link.platform.identityClaim);
  const ours = (await classStudents(schoolId, rosterClass.grade, rosterClass.className)).map((s) => ({
    sourcedId: s.sourcedId?.toLowerCase() ?? "",
    name: s.name,
  }));
  const portalIds = new Set(portal.map((p) => p.sourcedId));
  const ourIds = new Set(ours.map((p) => p.sourcedId));
  return {
    ok: true,
    className: rosterClass.title,
    matched: ours.filter((p) => portalIds.has(p.sourcedId)).length,
    portalOnly: portal.filter((p) => !ourIds.has(p.sourcedId)),
    oursOnly: ours.filter((p) => !portalIds.has(p.sourcedId)),
  };
}
