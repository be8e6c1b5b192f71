/**
 * An academy's LTI platform saved (features/lti/server/platform-commands.ts): an issuer and client id another academy
 * registered is refused as taken (CONFLICT, field "clientId"), also when several academies save the same pair at once
 * and the unique index decides, never an internal error.
 */
import { afterAll, describe, expect, it } from "vitest";
import { setLtiPlatform } from "@/features/lti/server/platform-commands";
import { db } from "@/platform/db";
import { createAcademy, uniqueTag } from "../../../prisma/seed/factories";

afterAll(async () => {
  await db().$disconnect();
});

const platform = (issuer: string) => ({
  issuer,
  clientId: "manabiya-tool",
  deploymentIds: ["d1"],
  authLoginUrl: "https://portal.example/auth",
  tokenUrl: "https://portal.example/token",
  jwksUrl: "https://portal.example/jwks",
  identityClaim: "sub",
});

describe("an academy's LTI platform", () => {
  it("another academy's issuer and client id are refused as taken, one after the other and all at once", async () => {
    const tag = uniqueTag();
    const academies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createAcademy(db(), { name: `L${i}${tag}`, nameKana: "える" })),
    );
    const issuer = `https://portal-${tag.toLowerCase().replace(/[^a-z0-9]/g, "")}.example`;
    const results = await Promise.all(academies.map((a) => setLtiPlatform(a.id, platform(issuer), { via: "cli" })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok))
      expect(r).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { clientId: ["taken"] } });
    const owner = academies[results.findIndex((r) => r.ok)]!;
    const late = academies.find((a) => a.id !== owner.id)!;
    expect(await setLtiPlatform(late.id, platform(issuer), { via: "cli" })).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { clientId: ["taken"] },
    });
    expect(await db().ltiPlatform.count({ where: { issuer } })).toBe(1);
  });
});
