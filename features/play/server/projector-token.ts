import { createHash, randomBytes } from "node:crypto";

/**
 * A projector link's token (docs/adr/0064-projector-links.md): 256 random bits, base64url
 * (43 characters); the database keeps only its sha-256, as it does for password reset tokens,
 * so a copy of the database opens no classroom screen.
 */
export const PROJECTOR_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newProjectorToken = () => randomBytes(32).toString("base64url");

export const hashProjectorToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Where a projector page loads one of its lesson's images (features/play/server/projector-routes.ts `projectorImage`). */
export const projectorImageUrl = (token: string, id: string) =>
  `/api/v1/projector/${encodeURIComponent(token)}/images/${encodeURIComponent(id)}`;
