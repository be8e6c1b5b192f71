/**
 * The images a scene's content places (`image: { id, alt, width, height }` on the scene and
 * on options, features/scenes/shared/schema.ts), found and rewritten wherever they are, so every copy of
 * content (import, library copy, versions) handles them in one way. Pure.
 */
type Placed = { id: string; width: number; height: number };

const isRef = (v: unknown): v is { id: string } =>
  Boolean(v) && typeof v === "object" && typeof (v as { id?: unknown }).id === "string";

/** The distinct image ids placed in `content`. */
export function imageIdsOf(content: unknown, out = new Set<string>()): string[] {
  if (Array.isArray(content)) for (const v of content) imageIdsOf(v, out);
  else if (content && typeof content === "object") {
    for (const [k, v] of Object.entries(content)) {
      if (k === "image" && isRef(v)) out.add(v.id);
      else imageIdsOf(v, out);
    }
  }
  return [...out];
}

/**
 * `content` with each placed image's id and size taken from `to` (alt kept); an image `to`
 * does not know is left out, so content never points at an image that is not there.
 */
export function rewriteImages<T>(content: T, to: ReadonlyMap<string, Placed>): T {
  if (Array.isArray(content)) return content.map((v: unknown) => rewriteImages(v, to)) as T;
  if (!content || typeof content !== "object") return content;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(content)) {
    if (k === "image" && isRef(v)) {
      const placed = to.get(v.id);
      if (placed) out[k] = { ...v, id: placed.id, width: placed.width, height: placed.height };
    } else out[k] = rewriteImages(v, to);
  }
  return out as T;
}
