/**
 * Answers read with the content they answered (docs/adr/0059-scene-versions.md): a scene edited
 * after an answer has a new version, and the answer is shown with the version it records.
 */
export interface VersionedScene {
  id: string;
  content: unknown;
  version: number;
  versions: { version: number; content: unknown }[];
}

/**
 * Each scene with the content of the version `responses` answered (the current one when it has no
 * answer, or the answer is to the current version), and that version when the scene has several
 * (null otherwise: nothing to tell apart).
 */
export function asAnswered<S extends VersionedScene>(
  scenes: S[],
  responses: { sceneId: string; sceneVersion: number }[],
): (S & { answeredVersion: number | null })[] {
  const answered = new Map(responses.map((r) => [r.sceneId, r.sceneVersion]));
  return scenes.map((s) => {
    const v = answered.get(s.id);
    const old = v === undefined || v === s.version ? undefined : s.versions.find((x) => x.version === v);
    return {
      ...s,
      content: old ? old.content : s.content,
      answeredVersion: v !== undefined && s.version > 1 ? v : null,
    };
  });
}
