/**
 * An academy's own OpenID Connect provider saved (features/people/server/academy-commands.ts): a slug another
 * academy uses is refused as taken (CONFLICT, field "slug"), also when several academies save the same new slug at
 * once and the unique index decides, never an internal error; the same academy's form sent twice at once saves once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { setOidcProvider } from "@/features/people/server/academy-commands";
import { db } from "@/platform/db";
import { createAcademy, uniqueTag } from "../../../prisma/seed/factories";

afterAll(async () => {
  await db().$disconnect();
});

const provider = (slug: string) => ({
  slug,
  displayName: "教育委員会ID",
  issuer: "https://id.board.example",
  clientId: "manabiya",
  clientSecret: "s3cret",
  identityClaim: "sub",
  allowedRoles: ["student" as const],
});

describe("an academy provider's slug", () => {
  it("another academy's slug is refused as taken, one after the other and all at once", async () => {
    const tag = uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
    const academies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createAcademy(db(), { name: `P${i}${tag}`, nameKana: "ぴー" })),
    );
    const slug = `race-${tag}`.slice(0, 40);
    const results = await Promise.all(academies.map((a) => setOidcProvider(a.id, provider(slug), { via: "cli" })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok))
      expect(r).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { slug: ["taken"] } });
    const owner = academies[results.findIndex((r) => r.ok)]!;
    const late = academies.find((a) => a.id !== owner.id)!;
    expect(await setOidcProvider(late.id, provider(slug), { via: "cli" })).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { slug: ["taken"] },
    });
    expect(await db().academyOidcProvider.count({ where: { slug } })).toBe(1);
  });

  it("one academy's first save sent twice at once (a double click): both succeed, one provider, never 'taken'", async () => {
    const tag = uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
    const academy = await createAcademy(db(), { name: `D${tag}`, nameKana: "でぃー" });
    const slug = `twice-${tag}`.slice(0, 40);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => setOidcProvider(academy.id, provider(slug), { via: "cli" })),
    );
    expect(results).toEqual(results.map(() => ({ ok: true, data: null })));
    expect(await db().academyOidcProvider.count({ where: { academyId: academy.id } })).toBe(1);
  });
});
