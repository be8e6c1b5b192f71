import "server-only";
import { db } from "@/platform/db";

/** An academy's own OpenID Connect provider by the slug of its sign-in link (null: none), with its sealed secret. */
export function findAcademyProvider(slug: string) {
  return db().academyOidcProvider.findUnique({
    where: { slug },
    select: {
      academyId: true,
      slug: true,
      displayName: true,
      issuer: true,
      clientId: true,
      clientSecretSealed: true,
      identityClaim: true,
      allowedRoles: true,
    },
  });
}
export type AcademyProvider = NonNullable<Awaited<ReturnType<typeof findAcademyProvider>>>;
