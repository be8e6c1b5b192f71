import "server-only";
import { db } from "@/platform/db";

/** The public keys published at /api/lti/jwks: the current one and those retired after `since`. */
export function publishedKeys(since: Date) {
  return db().ltiKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
    orderBy: { createdAt: "desc" },
    select: { kid: true, publicJwk: true },
  });
}

/** The current signing key (null: none made yet). */
export function findCurrentKey() {
  return db().ltiKey.findFirst({
    where: { retiredAt: null },
    select: { kid: true, privateKeySealed: true, publicJwk: true },
  });
}
