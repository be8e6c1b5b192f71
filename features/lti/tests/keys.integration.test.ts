/**
 * The tool's signing keys (features/lti/server/keys.ts): made on first need with the private key sealed, published
 * as a JWKS; a rotation makes a new current key and keeps the previous public key published for the overlap only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importJWK, SignJWT, jwtVerify, createLocalJWKSet, importPKCS8 } from "jose";
import { db } from "@/platform/db";
import { env } from "@/platform/env";
import { openSecret } from "@/platform/auth/secret-box";
import { KEY_OVERLAP_DAYS, rotateToolKey, toolJwks } from "@/features/lti/server/keys";

beforeAll(async () => {
  await db().ltiKey.deleteMany();
});
afterAll(async () => {
  await db().$disconnect();
});

describe("the tool's keys", () => {
  it("publishes one RS256 public key, made once however many ask at the same time, its private key sealed", async () => {
    const answers = await Promise.all([toolJwks(), toolJwks(), toolJwks()]);
    const kids = new Set(answers.flatMap((a) => a.keys.map((k) => k.kid)));
    expect(kids.size).toBe(1);
    const [jwk] = answers[0]!.keys;
    expect(jwk).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) });
    expect(jwk).not.toHaveProperty("d"); // no private part
    const row = await db().ltiKey.findUniqueOrThrow({ where: { kid: jwk!.kid! } });
    expect(row.privateKeySealed).not.toContain("PRIVATE KEY");
    // the sealed key opens with SIGNIN_CODE_KEY and signs what the published key verifies
    const pem = openSecret(row.privateKeySealed, env().SIGNIN_CODE_KEY, "lti-private-key");
    const token = await new SignJWT({ a: 1 })
      .setProtectedHeader({ alg: "RS256", kid: jwk!.kid })
      .sign(await importPKCS8(pem, "RS256"));
    await expect(jwtVerify(token, createLocalJWKSet(answers[0]!))).resolves.toBeTruthy();
    await expect(importJWK(jwk!, "RS256")).resolves.toBeTruthy();
  });

  it("rotates: the new key is current, the previous one stays published for the overlap, then is withdrawn", async () => {
    const before = (await toolJwks()).keys.map((k) => k.kid);
    const { kid, retired } = await rotateToolKey();
    expect(retired).toBe(before[0]);
    const after = (await toolJwks()).keys.map((k) => k.kid);
    expect(after).toEqual([kid, before[0]]);
    expect(await db().ltiKey.count({ where: { retiredAt: null } })).toBe(1);
    await db().ltiKey.update({
      where: { kid: before[0]! },
      data: { retiredAt: new Date(Date.now() - (KEY_OVERLAP_DAYS * 24 + 1) * 60 * 60 * 1000) },
    });
    expect((await toolJwks()).keys.map((k) => k.kid)).toEqual([kid]);
  });
});
