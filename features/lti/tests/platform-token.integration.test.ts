/**
 * The platform's access token (features/lti/server/platform-token.ts) from the emulator's token endpoint over real
 * HTTP (tests/support/lti-platform.ts), which verifies our client assertion against our published keys: granted for
 * a good assertion, kept until shortly before it expires, refused for another client, a key not ours or a replay.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, SignJWT } from "jose";
import { db } from "@/platform/db";
import { publicUrl } from "@/platform/env";
import { toolJwks } from "@/features/lti/server/keys";
import {
  CLIENT_ASSERTION_TYPE,
  clientAssertion,
  platformToken,
  ServiceRefused,
} from "@/features/lti/server/platform-token";
import { MEMBERS_SCOPE, SCORE_SCOPE } from "@/features/lti/shared/claims";
import { type LtiPlatformEmulator, startLtiPlatform } from "../../../tests/support/lti-platform";

let platform: LtiPlatformEmulator;
const ours = () => ({ id: randomUUID(), clientId: platform.clientId, tokenUrl: platform.tokenUrl });

beforeAll(async () => {
  platform = await startLtiPlatform({ toolUrl: publicUrl(), toolJwks });
});
afterAll(async () => {
  await platform.close();
  await db().$disconnect();
});

const post = (assertion: string) =>
  fetch(platform.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: assertion,
      scope: SCORE_SCOPE,
    }),
  });

describe("the platform's access token", () => {
  it("a client assertion signed with our key gets a token for the scopes asked, kept per platform and scopes", async () => {
    const p = ours();
    const before = platform.tokenRequests.length;
    const token = await platformToken(p, [SCORE_SCOPE]);
    expect(token).toMatch(/\S{16,}/);
    expect(platform.tokenRequests.slice(before)).toEqual([{ granted: true, scope: SCORE_SCOPE }]);
    // held: the same token, no second request
    expect(await platformToken(p, [SCORE_SCOPE])).toBe(token);
    expect(platform.tokenRequests.length).toBe(before + 1);
    // other scopes, or another platform: a token of their own
    expect(await platformToken(p, [MEMBERS_SCOPE])).not.toBe(token);
    expect(await platformToken(ours(), [SCORE_SCOPE])).not.toBe(token);
    expect(platform.tokenRequests.slice(before).map((r) => r.granted)).toEqual([true, true, true]);
  });

  it("an assertion for another client id is refused, and no token is held", async () => {
    const p = { ...ours(), clientId: `someone-else-${randomUUID()}` };
    await expect(platformToken(p, [SCORE_SCOPE])).rejects.toBeInstanceOf(ServiceRefused);
    expect(platform.tokenRequests.at(-1)).toMatchObject({
      granted: false,
      error: expect.stringMatching(/^invalid_client/),
    });
    await expect(platformToken(p, [SCORE_SCOPE])).rejects.toBeInstanceOf(ServiceRefused);
  });

  it("key confusion: an assertion with our claims and kid but signed by another key is refused", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const kid = (await toolJwks()).keys[0]!.kid!;
    const forged = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(platform.clientId)
      .setSubject(platform.clientId)
      .setAudience(platform.tokenUrl)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    const res = await post(forged);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "invalid_client" });
    const hs = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: "HS256", kid })
      .setIssuer(platform.clientId)
      .setSubject(platform.clientId)
      .setAudience(platform.tokenUrl)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(JSON.stringify((await toolJwks()).keys[0])));
    expect((await post(hs)).status).toBe(401);
  });

  it("assertion replay: each assertion has a fresh jti, and one posted again is refused", async () => {
    const p = ours();
    const first = await clientAssertion(p);
    const second = await clientAssertion(p);
    const jti = (jwt: string) =>
      (JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as { jti: string }).jti;
    expect(jti(first)).not.toBe(jti(second));
    expect((await post(first)).status).toBe(200);
    const again = await post(first);
    expect(again.status).toBe(401);
    expect(platform.tokenRequests.at(-1)).toMatchObject({ granted: false, error: "invalid_client: jti replayed" });
  });
});
