import "server-only";
import { db } from "@/platform/db";

/** A person's passkeys as their settings list them: name, when added, when last used. */
export function listPasskeys(userId: string) {
  return db().passkey.findMany({
    where: { userId },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
    orderBy: { createdAt: "asc" },
  });
}

/** The person's credential ids (and transports), to exclude on registration and to allow at sign-in. */
export function passkeyDescriptors(userId: string) {
  return db().passkey.findMany({ where: { userId }, select: { credentialId: true, transports: true } });
}

/** The person's passkey with this credential id (another person's is none). */
export function findPasskey(userId: string, credentialId: string) {
  return db().passkey.findFirst({
    where: { userId, credentialId },
    select: { id: true, credentialId: true, publicKey: true, counter: true, transports: true },
  });
}
