import { hash, verify } from "@node-rs/argon2";

// Algorithm.Argon2id (a const enum, which isolatedModules cannot read).
const ARGON2ID = 2;

/**
 * argon2id at the OWASP minimum (19 MiB, t=2, p=1). Hashing runs on libuv's
 * thread pool, so a burst of sign-ins cannot block the event loop.
 */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the account does not exist (same timing). */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("manabiya-timing-equaliser");
  return dummyHash;
}
