import { randomUUID } from "node:crypto";
import type { Account, Profile } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchOidcAccount } from "@/platform/auth/oidc";
import { db } from "@/platform/db";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../prisma/seed/factories";

const account = (provider: string, sub: string): Account => ({
  provider,
  providerAccountId: sub,
  type: "oidc",
});
const entra = (profile: Profile) => account("microsoft-entra-id", String(profile.sub));
const client = { ip: "203.0.113.9", userAgent: "test" };

describe("OpenID Connect sign-in: who a Google or Microsoft token signs in", () => {
  const tenant = randomUUID();
  let teacher: { id: string; email: string | null };
  let student: { id: string };
  let unbound: { id: string; email: string | null };
  const oid = randomUUID();

  beforeAll(async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `A${tag}`, nameKana: "えー" });
    await db().academy.update({ where: { id: academy.id }, data: { entraTenantId: tenant } });
    const school = await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" });
    teacher = await createUser(db(), { role: "teacher", email: `t-${tag}@school.example`, schoolId: school.id });
    student = await createUser(db(), {
      role: "student",
      schoolId: school.id,
      student: { grade: 1, className: "1", number: 1 },
    });
    await db().user.update({ where: { id: student.id }, data: { userMasterIdentifier: oid } });
    const other = await createAcademy(db(), { name: `B${tag}`, nameKana: "びー" });
    const otherSchool = await createSchool(db(), { academyId: other.id, name: `T${tag}`, nameKana: "てぃー" });
    unbound = await createUser(db(), { role: "teacher", email: `u-${tag}@school.example`, schoolId: otherSchool.id });
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  const entraProfile = (claims: Record<string, unknown>): Profile => ({
    sub: randomUUID(),
    tid: tenant,
    xms_edov: true,
    ...claims,
  });

  it("signs in a person of the bound tenant by verified e-mail, links the account and logs signin.entra.success", async () => {
    const profile = entraProfile({ email: teacher.email!.toUpperCase() });
    expect(await matchOidcAccount(entra(profile), profile, { link: true, client })).toEqual({
      ok: true,
      user: { id: teacher.id, role: "teacher" },
    });
    expect(await db().account.count({ where: { userId: teacher.id, provider: "microsoft-entra-id" } })).toBe(1);
    const logged = await db().auditLog.findFirst({ where: { actorId: teacher.id, action: "signin.entra.success" } });
    expect(logged?.ip).toBe(client.ip);
  });

  it("signs in a student without an e-mail by the roster's userMasterIdentifier (oid)", async () => {
    const profile = entraProfile({ oid, email: "someone-else@school.example" });
    expect(await matchOidcAccount(entra(profile), profile, { link: false })).toEqual({
      ok: true,
      user: { id: student.id, role: "student" },
    });
  });

  it("refuses another tenant's token with the same e-mail (tenant confusion), logs it and links nothing", async () => {
    const profile = entraProfile({ tid: randomUUID(), email: teacher.email });
    const before = await db().account.count({ where: { provider: "microsoft-entra-id" } });
    expect(await matchOidcAccount(entra(profile), profile, { link: true, client })).toEqual({
      ok: false,
      code: "wrongTenant",
    });
    expect(await db().account.count({ where: { provider: "microsoft-entra-id" } })).toBe(before);
    const refused = await db().auditLog.findFirst({
      where: { actorId: teacher.id, action: "signin.entra.failure" },
      select: { meta: true },
    });
    expect(refused?.meta).toMatchObject({ reason: "wrongTenant" });
    // a token without tid, and a person whose academy is bound to no tenant, are refused alike
    const noTid = entraProfile({ tid: undefined, email: teacher.email });
    expect(await matchOidcAccount(entra(noTid), noTid, { link: false })).toEqual({ ok: false, code: "wrongTenant" });
    const stranger = entraProfile({ email: unbound.email });
    expect(await matchOidcAccount(entra(stranger), stranger, { link: false })).toEqual({
      ok: false,
      code: "wrongTenant",
    });
  });

  it("refuses an e-mail Entra does not call verified, and a disabled person", async () => {
    const unverified = entraProfile({ email: teacher.email, xms_edov: false });
    expect(await matchOidcAccount(entra(unverified), unverified, { link: false })).toEqual({
      ok: false,
      code: "userNotFound",
    });
    const disabled = await createUser(db(), {
      role: "teacher",
      email: `d-${uniqueTag()}@school.example`,
      schoolId: (await db().user.findUniqueOrThrow({ where: { id: teacher.id } })).schoolId!,
      disabled: true,
    });
    const profile = entraProfile({ email: disabled.email });
    expect(await matchOidcAccount(entra(profile), profile, { link: false })).toEqual({
      ok: false,
      code: "userDisabled",
    });
  });

  it("Google: a verified e-mail signs in whatever the tenant claims; an unverified one does not", async () => {
    const google = { sub: randomUUID(), email: teacher.email, email_verified: true, tid: randomUUID() };
    expect(await matchOidcAccount(account("google", google.sub), google, { link: false })).toMatchObject({ ok: true });
    const unverified = { ...google, email_verified: false };
    expect(await matchOidcAccount(account("google", google.sub), unverified, { link: false })).toEqual({
      ok: false,
      code: "userNotFound",
    });
  });
  it("an academy's own provider: matches its configured claim only, within its academy and the roles it allows", async () => {
    const school = (await db().user.findUniqueOrThrow({ where: { id: teacher.id } })).schoolId!;
    const { academyId } = await db().school.findUniqueOrThrow({ where: { id: school }, select: { academyId: true } });
    const slug = `it-${uniqueTag().toLowerCase()}`.slice(0, 40).replace(/[^a-z0-9-]/g, "0");
    await db().academyOidcProvider.create({
      data: {
        ...{ academyId, slug, displayName: "ID", issuer: "https://id.example", clientId: "c" },
        ...{ clientSecretSealed: "v1.a.b.c", identityClaim: "roster_id", allowedRoles: ["student"] },
      },
    });
    const academyAccount = account(`oidc-${slug}`, "sub-1");
    // the student by the roster id claim (a number in the token is compared as text)
    await db().user.update({ where: { id: student.id }, data: { userMasterIdentifier: "4711" } });
    expect(await matchOidcAccount(academyAccount, { sub: "x", roster_id: 4711 }, { link: false })).toEqual({
      ok: true,
      user: { id: student.id, role: "student" },
    });
    // the e-mail is not the configured claim: a verified e-mail alone names nobody
    const byEmail = { sub: "x", email: teacher.email, email_verified: true };
    expect(await matchOidcAccount(academyAccount, byEmail, { link: false })).toEqual({
      ok: false,
      code: "userNotFound",
    });
    // a teacher of the academy: a role it does not allow
    await db().user.update({ where: { id: teacher.id }, data: { userMasterIdentifier: `t-${slug}` } });
    const asTeacher = { sub: "x", roster_id: `t-${slug}` };
    expect(await matchOidcAccount(academyAccount, asTeacher, { link: true, client })).toEqual({
      ok: false,
      code: "roleNotAllowed",
    });
    expect(await db().account.count({ where: { provider: `oidc-${slug}` } })).toBe(0);
    // another academy's person with a matching roster id
    await db().user.update({ where: { id: unbound.id }, data: { userMasterIdentifier: `u-${slug}` } });
    const stranger = { sub: "x", roster_id: `u-${slug}` };
    expect(await matchOidcAccount(academyAccount, stranger, { link: false })).toEqual({
      ok: false,
      code: "wrongAcademy",
    });
    // an unknown slug is no provider
    expect(await matchOidcAccount(account("oidc-nobody-here", "x"), stranger, { link: false })).toEqual({
      ok: false,
      code: "providerFailed",
    });
  });
});
