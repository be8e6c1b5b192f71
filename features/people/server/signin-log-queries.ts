import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";
import { escapeLike } from "@/platform/db/query-text";
import {
  describeAction,
  FACTOR_STEPS,
  SIGNIN_LOG_PAGE_SIZE,
  type SigninLogQuery,
  type SigninMethod,
} from "@/features/people/shared/signin-log";

/**
 * Whose entries a reader sees: a manager their academy's (entries of the academy or of one of its schools), a teacher
 * their own sign-ins. Built from the acting user read from the database (features/people/ui/signin-log-page.tsx).
 */
export type SigninLogScope = { academyId: string } | { ownUserId: string };

/** One entry as the log shows it: times in UTC (shown in school time), never a password or code (none is stored). */
export interface SigninLogRow {
  id: string;
  at: Date;
  action: string;
  method: SigninMethod;
  result: "success" | "failure" | "throttled";
  reason: string | null;
  name: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
}

const SIGNIN_FAMILIES: Prisma.AuditLogWhereInput[] = [
  { action: { startsWith: "signin." } },
  { action: { startsWith: "password.reset." } },
  // "signout", and "signout.device": a device ended from another (platform/auth/device-actions.ts)
  { action: { startsWith: "signout" } },
];

const METHOD_WHERE: Record<SigninMethod, Prisma.AuditLogWhereInput> = {
  password: { action: { startsWith: "signin.password." } },
  google: { action: { startsWith: "signin.google." } },
  entra: { action: { startsWith: "signin.entra." } },
  oidc: { action: { startsWith: "signin.oidc." } },
  lti: { action: { startsWith: "signin.lti." } },
  code: { action: { startsWith: "signin.code." } },
  factor: { OR: FACTOR_STEPS.map((step) => ({ action: { startsWith: `signin.${step}.` } })) },
  reset: { action: { startsWith: "password.reset." } },
  signout: { action: { startsWith: "signout" } },
  change: { NOT: SIGNIN_FAMILIES },
};

const FAILED: Prisma.AuditLogWhereInput = { action: { startsWith: "signin.", endsWith: ".failure" } };
const THROTTLED: Prisma.AuditLogWhereInput = { action: { startsWith: "signin.", endsWith: ".throttled" } };

async function scopeWhere(scope: SigninLogScope): Promise<Prisma.AuditLogWhereInput> {
  if ("ownUserId" in scope) return { actorId: scope.ownUserId, OR: SIGNIN_FAMILIES };
  const schools = await db().school.findMany({ where: { academyId: scope.academyId }, select: { id: true } });
  return { OR: [{ academyId: scope.academyId }, { schoolId: { in: schools.map((s) => s.id) } }] };
}

/** A day (YYYY-MM-DD) of school time as the moment it starts. */
const jstDayStart = (day: string, plusDays = 0) =>
  new Date(Date.parse(`${day}T00:00:00+09:00`) + plusDays * 24 * 60 * 60 * 1000);

function filterWhere(q: SigninLogQuery): Prisma.AuditLogWhereInput[] {
  const where: Prisma.AuditLogWhereInput[] = [];
  if (q.method) where.push(METHOD_WHERE[q.method]);
  if (q.result === "failure") where.push(FAILED);
  else if (q.result === "throttled") where.push(THROTTLED);
  else if (q.result === "success") where.push({ NOT: [FAILED, THROTTLED] });
  if (q.from) where.push({ at: { gte: jstDayStart(q.from) } });
  if (q.to) where.push({ at: { lt: jstDayStart(q.to, 1) } });
  if (q.q) {
    const text = escapeLike(q.q);
    where.push({
      OR: [
        { actor: { name: { contains: text, mode: "insensitive" } } },
        { actor: { email: { contains: text, mode: "insensitive" } } },
        // the e-mail a failed sign-in typed (stored lower-case; never linked to an account that does not exist)
        { meta: { path: ["email"], string_contains: q.q.toLowerCase() } },
      ],
    });
  }
  return where;
}

const ROW_SELECT = {
  id: true,
  at: true,
  action: true,
  ip: true,
  userAgent: true,
  meta: true,
  actor: { select: { name: true, email: true } },
} satisfies Prisma.AuditLogSelect;

type Selected = Prisma.AuditLogGetPayload<{ select: typeof ROW_SELECT }>;

function toRow(entry: Selected): SigninLogRow {
  const meta = entry.meta && typeof entry.meta === "object" && !Array.isArray(entry.meta) ? entry.meta : {};
  const text = (key: string) => (typeof meta[key] === "string" ? meta[key] : null);
  return {
    id: entry.id.toString(),
    at: entry.at,
    action: entry.action,
    ...describeAction(entry.action),
    reason: text("reason"),
    name: entry.actor?.name ?? null,
    email: entry.actor?.email ?? text("email"),
    ip: entry.ip,
    userAgent: entry.userAgent,
  };
}

/** The where of a scope and a query (the page and the export read the same rows). */
export async function signinLogWhere(scope: SigninLogScope, q: SigninLogQuery): Promise<Prisma.AuditLogWhereInput> {
  return { AND: [await scopeWhere(scope), ...filterWhere(q)] };
}

/** One page of the log, newest first, with the number of matching entries and pages. */
export async function listSigninLog(scope: SigninLogScope, q: SigninLogQuery) {
  const where = await signinLogWhere(scope, q);
  const [total, entries] = await Promise.all([
    db().auditLog.count({ where }),
    db().auditLog.findMany({
      where,
      orderBy: [{ at: "desc" }, { id: "desc" }],
      skip: (q.page - 1) * SIGNIN_LOG_PAGE_SIZE,
      take: SIGNIN_LOG_PAGE_SIZE,
      select: ROW_SELECT,
    }),
  ]);
  return { rows: entries.map(toRow), total, pages: Math.max(1, Math.ceil(total / SIGNIN_LOG_PAGE_SIZE)) };
}

/** Every matching entry, newest first, up to `max` (null when more match: the export asks for a narrower filter). */
export async function exportSigninLog(
  scope: SigninLogScope,
  q: SigninLogQuery,
  max: number,
): Promise<SigninLogRow[] | null> {
  const entries = await db().auditLog.findMany({
    where: await signinLogWhere(scope, q),
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: max + 1,
    select: ROW_SELECT,
  });
  return entries.length > max ? null : entries.map(toRow);
}
