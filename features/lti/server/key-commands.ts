import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";

interface NewKey {
  kid: string;
  publicJwk: Prisma.InputJsonValue;
  privateKeySealed: string;
}

/** Adds `key` as the current key unless one exists (the partial unique index keeps one current); whether it did. */
export async function addFirstKey(key: NewKey): Promise<boolean> {
  const inserted = await db().$executeRaw`
    insert into lti_keys (kid, public_jwk, private_key_sealed)
    values (${key.kid}, ${JSON.stringify(key.publicJwk)}::jsonb, ${key.privateKeySealed})
    on conflict do nothing`;
  return inserted === 1;
}

/** Retires the current key and makes `key` current, in one transaction. */
export async function replaceCurrentKey(key: NewKey): Promise<{ retired: string | null }> {
  return db().$transaction(async (tx) => {
    const [old] = await tx.$queryRaw<{ kid: string }[]>`
      update lti_keys set retired_at = now() where retired_at is null returning kid`;
    await tx.ltiKey.create({ data: key });
    return { retired: old?.kid ?? null };
  });
}
