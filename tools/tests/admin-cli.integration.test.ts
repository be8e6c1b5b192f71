import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "@/platform/auth/password";
import { readLibraryFiles } from "@/features/activities/server/library-bundle";
import { openSecret } from "@/platform/auth/secret-box";
import { PUBLIC_URL, runAdmin } from "../../tests/support/admin-run";
import { freshDatabase, TEST_SIGNIN_CODE_KEY } from "../../tests/support/helpers";

/**
 * `npm run admin -- …` as an IT office uses it on an empty production database:
 * an academy, a school and its first manager without SQL, a staff password
 * reset, an unlock; each in the audit log; bad input changes nothing.
 */
const db = freshDatabase("admin_cli");
const PUBLIC = PUBLIC_URL;
const admin = (args: string[], stdin?: string) => runAdmin(db.url, args, stdin);

const idIn = (text: string) => /([0-9a-f-]{36})/.exec(text)?.[1] ?? "";

describe("the administrator's command line", () => {
  it("brings an empty database to life: academy, school, first manager with a one-time link from the public address", async () => {
    const academy = await admin([
      "create-academy",
      "--name",
      "横浜市教育委員会",
      "--name-kana",
      "よこはましきょういくいいんかい",
    ]);
    expect(academy.code).toBe(0);
    const academyId = idIn(academy.out);
    // its library starts with every ready activity of prisma/content/library
    const bundled = (await readLibraryFiles()).length;
    expect(academy.out).toContain(`library: ${bundled} ready activities`);
    expect(await db.prisma.libraryEntry.count({ where: { academyId, bundleId: { not: null } } })).toBe(bundled);
    const school = await admin(["create-school", "--academy", academyId, "--name", "港北小学校"]);
    expect(school.code).toBe(0);
    const manager = await admin([
      "create-manager",
      "--academy",
      academyId,
      "--email",
      "Boss@Example.JP",
      "--name",
      "管理 花子",
    ]);
    expect(manager.code).toBe(0);
    const token = new RegExp(`${PUBLIC}/auth/reset\\?token=([A-Za-z0-9_-]{43})`).exec(manager.out)?.[1];
    expect(token).toBeTruthy();
    const user = await db.prisma.user.findUniqueOrThrow({
      where: { email: "boss@example.jp" },
      include: { resetTokens: true },
    });
    expect(user).toMatchObject({ role: "manager", academyId, passwordHash: null });
    const hash = createHash("sha256").update(token!).digest("hex");
    const row = user.resetTokens.find((t) => t.tokenHash === hash);
    expect(row?.usedAt).toBeNull();
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

    const listing = await admin(["list-academies"]);
    expect(listing.out).toContain(`${academyId}  横浜市教育委員会  (1 schools, 1 managers)`);
    const actions = await db.prisma.auditLog.findMany({ where: { academyId }, select: { action: true, meta: true } });
    expect(actions.map((a) => a.action).sort()).toEqual([
      "admin.academy.create",
      "admin.manager.create",
      "admin.school.create",
    ]);
    expect(actions.every((a) => (a.meta as { via?: string }).via === "cli")).toBe(true);
  }, 120_000);

  it("sets a staff password from standard input (ending sessions), unlocks a throttled account, and refuses students and strangers", async () => {
    const school = await db.prisma.school.findFirstOrThrow({ select: { id: true } });
    const teacher = await db.prisma.user.create({
      data: { role: "teacher", groupType: "school", schoolId: school.id, email: "t@example.jp", name: "先生" },
    });
    await db.prisma.user.create({
      data: { role: "student", groupType: "school", schoolId: school.id, email: "kid@example.jp", name: "生徒" },
    });

    const set = await admin(
      ["reset-password", "--email", "t@example.jp", "--password-stdin"],
      "a-long-password-2026\n",
    );
    expect(set.code).toBe(0);
    const after = await db.prisma.user.findUniqueOrThrow({ where: { id: teacher.id } });
    expect(await verifyPassword(after.passwordHash!, "a-long-password-2026")).toBe(true);
    expect(after.sessionVersion).toBe(teacher.sessionVersion + 1);

    await db.prisma.signinThrottle.create({
      data: { key: "account:t@example.jp", failures: 11, windowStart: new Date() },
    });
    const unlock = await admin(["unlock", "--email", "t@example.jp"]);
    expect(unlock).toMatchObject({ code: 0, out: expect.stringContaining("unlocked") });
    expect(await db.prisma.signinThrottle.count({ where: { key: "account:t@example.jp" } })).toBe(0);

    // a lost phone: the app, recovery codes and passkeys go, the person is signed out, the reset is audited
    await db.prisma.totpFactor.create({
      data: { userId: teacher.id, secretSealed: "v1.x.y.z", confirmedAt: new Date() },
    });
    await db.prisma.recoveryCode.create({ data: { userId: teacher.id, codeHash: "h" } });
    await db.prisma.passkey.create({
      data: { userId: teacher.id, credentialId: "cred-1", publicKey: Buffer.from("k"), name: "staff room PC" },
    });
    const version = (await db.prisma.user.findUniqueOrThrow({ where: { id: teacher.id } })).sessionVersion;
    const reset = await admin(["reset-factors", "--email", "t@example.jp"]);
    expect(reset).toMatchObject({ code: 0, out: expect.stringContaining("second factor removed") });
    expect(await db.prisma.totpFactor.count({ where: { userId: teacher.id } })).toBe(0);
    expect(await db.prisma.recoveryCode.count({ where: { userId: teacher.id } })).toBe(0);
    expect(await db.prisma.passkey.count({ where: { userId: teacher.id } })).toBe(0);
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: teacher.id } })).sessionVersion).toBe(version + 1);
    expect(await db.prisma.auditLog.count({ where: { action: "admin.factors.reset", targetId: teacher.id } })).toBe(1);
    expect((await admin(["reset-factors", "--email", "nobody@example.jp"])).code).toBe(1);

    const student = await admin(["reset-password", "--email", "kid@example.jp"]);
    expect(student).toMatchObject({ code: 1, err: expect.stringContaining("teacher") });
    const stranger = await admin(["reset-password", "--email", "nobody@example.jp"]);
    expect(stranger.code).toBe(1);
    const short = await admin(["reset-password", "--email", "t@example.jp", "--password-stdin"], "short\n");
    expect(short).toMatchObject({ code: 2, err: expect.stringContaining("--password-stdin") });
    expect(
      await verifyPassword(
        (await db.prisma.user.findUniqueOrThrow({ where: { id: teacher.id } })).passwordHash!,
        "a-long-password-2026",
      ),
    ).toBe(true);
    const audited = await db.prisma.auditLog.findMany({ where: { targetId: teacher.id }, select: { action: true } });
    expect(audited.map((a) => a.action).sort()).toEqual([
      "admin.account.unlock",
      "admin.factors.reset",
      "admin.password.reset",
    ]);
  }, 120_000);

  it("refuses bad input with its usage and changes nothing", async () => {
    const before = await db.prisma.academy.count();
    expect((await admin(["create-academy", "--name", "   "])).code).toBe(2);
    expect((await admin(["create-academy", "--name", "市", "--name-kana", "City"])).err).toContain(
      "hiragana or katakana",
    );
    expect((await admin(["create-school", "--academy", "not-an-id", "--name", "x"])).err).toContain("--academy");
    expect(
      (
        await admin([
          "create-manager",
          "--academy",
          "00000000-0000-4000-8000-000000000000",
          "--email",
          "m@example.jp",
          "--name",
          "x",
        ])
      ).code,
    ).toBe(1);
    expect((await admin(["drop-everything"])).code).toBe(2);
    expect(await db.prisma.academy.count()).toBe(before);
  }, 120_000);

  it("binds an academy to a Microsoft Entra ID tenant and unbinds it; a malformed tenant or an unknown academy changes nothing", async () => {
    const academy = await db.prisma.academy.findFirstOrThrow({ select: { id: true } });
    const tenant = "72F988BF-86F1-41AF-91AB-2D7CD011DB47";
    const bad = await admin(["set-entra-tenant", "--academy", academy.id, "--tenant", "contoso.onmicrosoft.com"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--tenant");
    const unknown = ["set-entra-tenant", "--academy", "00000000-0000-4000-8000-000000000000", "--tenant", tenant];
    expect((await admin(unknown)).code).toBe(1);
    expect((await db.prisma.academy.findUniqueOrThrow({ where: { id: academy.id } })).entraTenantId).toBeNull();

    const bound = await admin(["set-entra-tenant", "--academy", academy.id, "--tenant", tenant]);
    expect(bound.code).toBe(0);
    expect((await db.prisma.academy.findUniqueOrThrow({ where: { id: academy.id } })).entraTenantId).toBe(
      tenant.toLowerCase(),
    );
    expect((await admin(["set-entra-tenant", "--academy", academy.id, "--tenant", ""])).code).toBe(0);
    expect((await db.prisma.academy.findUniqueOrThrow({ where: { id: academy.id } })).entraTenantId).toBeNull();
    const audited = await db.prisma.auditLog.findMany({
      where: { targetId: academy.id, action: "academy.entraTenant" },
      select: { meta: true },
      orderBy: { id: "asc" },
    });
    expect(audited.map((a) => a.meta)).toEqual([
      { tenantId: tenant.toLowerCase(), via: "cli" },
      { tenantId: null, via: "cli" },
    ]);
  }, 120_000);
  it("sets an academy's own OpenID Connect provider with the secret from standard input (sealed, never logged), keeps it when not given, refuses bad input, and removes it", async () => {
    const academy = {
      id: idIn(
        (await admin(["create-academy", "--name", "市教育委員会", "--name-kana", "しきょういくいいんかい"])).out,
      ),
    };
    const set = (extra: string[]) => [
      ...["set-oidc-provider", "--academy", academy.id, "--slug", "Board-1", "--name", "教育委員会ID"],
      ...["--issuer", "https://id.board.example/realms/school", "--client-id", "manabiya", "--claim", "roster_id"],
      ...extra,
    ];
    const noSecret = await admin(set(["--roles", "student,teacher"]));
    expect(noSecret).toMatchObject({ code: 1, err: expect.stringContaining("--secret-stdin") });
    const http = await admin([...set(["--roles", "student"]), "--issuer", "http://id.board.example"]);
    expect(http).toMatchObject({ code: 2, err: expect.stringContaining("--issuer") });
    expect((await admin(set(["--roles", "pupil"]))).code).toBe(2);
    expect(await db.prisma.academyOidcProvider.count()).toBe(0);

    const made = await admin(set(["--roles", "student,teacher", "--secret-stdin"]), "top-secret-value\n");
    expect(made).toMatchObject({ code: 0, out: expect.stringContaining("/signin?academy=board-1") });
    const row = await db.prisma.academyOidcProvider.findUniqueOrThrow({ where: { academyId: academy.id } });
    expect(row).toMatchObject({ slug: "board-1", identityClaim: "roster_id", allowedRoles: ["student", "teacher"] });
    expect(row.clientSecretSealed).not.toContain("top-secret-value");
    expect(made.err).not.toContain("top-secret-value");
    expect(await admin(set(["--roles", "student"]))).toMatchObject({ code: 0 }); // the sealed secret is kept
    const kept = await db.prisma.academyOidcProvider.findUniqueOrThrow({ where: { academyId: academy.id } });
    expect(kept).toMatchObject({ clientSecretSealed: row.clientSecretSealed, allowedRoles: ["student"] });
    const audited = await db.prisma.auditLog.findMany({
      where: { targetId: academy.id, action: "academy.oidcProvider" },
    });
    expect(audited).toHaveLength(2);
    expect(JSON.stringify(audited.map((a) => a.meta))).not.toContain("top-secret-value");

    expect((await admin(["remove-oidc-provider", "--academy", academy.id])).code).toBe(0);
    expect(await db.prisma.academyOidcProvider.count()).toBe(0);
    expect((await admin(["remove-oidc-provider", "--academy", academy.id])).code).toBe(1);
  }, 120_000);
  it("registers an academy's LTI platform, refuses bad input, removes it; rotate-lti-key keeps the previous public key published", async () => {
    const academy = {
      id: idIn((await admin(["create-academy", "--name", "LTI学園", "--name-kana", "えるてぃーあいがくえん"])).out),
    };
    const portal = "https://portal.example.jp";
    const set = (extra: string[]) => [
      ...["set-lti-platform", "--academy", academy.id, "--issuer", portal, "--client-id", "manabiya"],
      ...["--deployments", "dep-1,dep-2", "--auth-url", `${portal}/auth`, "--token-url", `${portal}/token`],
      ...["--jwks-url", `${portal}/jwks`],
      ...extra,
    ];
    expect(await admin([...set([]), "--auth-url", "http://portal.example.jp/auth"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--auth-url"),
    });
    expect(await admin([...set([]), "--deployments", ""])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--deployments"),
    });
    expect(await db.prisma.ltiPlatform.count()).toBe(0);
    expect(await admin(set([]))).toMatchObject({ code: 0, out: expect.stringContaining(portal) });
    expect(await admin(set(["--claim", "roster_id"]))).toMatchObject({ code: 0 });
    expect(
      await db.prisma.ltiPlatform.findUniqueOrThrow({
        where: { academyId: academy.id },
        select: { deploymentIds: true, identityClaim: true, jwksUrl: true },
      }),
    ).toEqual({ deploymentIds: ["dep-1", "dep-2"], identityClaim: "roster_id", jwksUrl: `${portal}/jwks` });
    expect(await db.prisma.auditLog.count({ where: { targetId: academy.id, action: "academy.ltiPlatform" } })).toBe(2);
    expect((await admin(["remove-lti-platform", "--academy", academy.id])).code).toBe(0);
    expect(await db.prisma.ltiPlatform.count()).toBe(0);
    expect((await admin(["remove-lti-platform", "--academy", academy.id])).code).toBe(1);

    const first = await admin(["rotate-lti-key"]);
    const second = await admin(["rotate-lti-key"]);
    expect(first.code).toBe(0);
    const firstKid = /now (\S+)/.exec(first.out)?.[1];
    expect(second.out).toContain(`; ${firstKid} stays published 7 days`);
    expect(await db.prisma.ltiKey.count({ where: { retiredAt: null } })).toBe(1);
    expect(await db.prisma.ltiKey.count()).toBe(2);
  }, 120_000);

  it("sets an academy's LRS with its secret from standard input, sealed, names off unless asked; refuses bad input; counts the statements sent again; removes it", async () => {
    const academy = {
      id: idIn((await admin(["create-academy", "--name", "LRS学園", "--name-kana", "えるあーるえすがくえん"])).out),
    };
    const set = (extra: string[]) => [
      ...["set-lrs", "--academy", academy.id, "--endpoint", "https://lrs.example.jp/xapi/", "--key", "k1"],
      "--secret-stdin",
      ...extra,
    ];
    expect(await admin([...set([]), "--endpoint", "http://lrs.example.jp/xapi"], "s3cret\n")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--endpoint"),
    });
    expect(await admin(set([]), "")).toMatchObject({ code: 2, err: expect.stringContaining("--secret") });
    expect(await db.prisma.academyLrs.count()).toBe(0);
    expect(await admin(set([]), "s3cret\n")).toMatchObject({ code: 0, out: expect.stringContaining("lrs.example.jp") });
    const stored = await db.prisma.academyLrs.findUniqueOrThrow({ where: { academyId: academy.id } });
    expect(stored).toMatchObject({ endpoint: "https://lrs.example.jp/xapi", includeNames: false });
    // sealed: neither the key nor the secret is in the row
    expect(stored.credentialsSealed).toMatch(/^v1\./);
    expect(stored.credentialsSealed).not.toContain("s3cret");
    expect(openSecret(stored.credentialsSealed, TEST_SIGNIN_CODE_KEY, "lrs-credentials")).toBe("k1:s3cret");
    expect(await admin(set(["--include-names"]), "s3cret\n")).toMatchObject({ code: 0 });
    expect(await db.prisma.academyLrs.findUniqueOrThrow({ where: { academyId: academy.id } })).toMatchObject({
      includeNames: true,
    });
    // the count of statements sent taken again: a count with no statement sent behind it goes, and it is audited
    await db.prisma.$executeRawUnsafe(
      `insert into xapi_sent_counts (academy_id, sent) values ($1::uuid, 7)`,
      academy.id,
    );
    expect(await admin(["recount-lrs-sent"])).toMatchObject({
      code: 0,
      out: expect.stringContaining("counted again: 0 in 0 academies"),
    });
    expect(await db.prisma.$queryRawUnsafe(`select sent from xapi_sent_counts`)).toEqual([]);
    expect(await db.prisma.auditLog.count({ where: { action: "admin.recount-lrs-sent" } })).toBe(1);
    expect((await admin(["remove-lrs", "--academy", academy.id])).code).toBe(0);
    expect(await db.prisma.academyLrs.count()).toBe(0);
    expect((await admin(["remove-lrs", "--academy", academy.id])).code).toBe(1);
  }, 120_000);
});
