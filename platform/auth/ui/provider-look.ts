/** How each OpenID Connect provider's sign-in button reads (platform/auth/oidc.ts names the providers). */
export const PROVIDER_LOOK = {
  google: { label: "google", mark: "G", testId: "google-signin" },
  "microsoft-entra-id": { label: "microsoft", mark: "M", testId: "entra-signin" },
} as const;
export type ProviderId = keyof typeof PROVIDER_LOOK;

export function isProviderId(id: string): id is ProviderId {
  return id in PROVIDER_LOOK;
}
