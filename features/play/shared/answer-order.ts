/**
 * The scene order a respondent sees: their counterbalance group's own order
 * when the activity has one (and it still names exactly the activity's
 * scenes), otherwise the default order (`position`).
 */
export function scenesInOrder<S extends { id: string; position: number }>(
  scenes: S[],
  orders: { group: string; sceneIds: string[] }[],
  group: string | null,
): S[] {
  const byDefault = [...scenes].sort((a, b) => a.position - b.position);
  const own = group ? orders.find((o) => o.group === group) : undefined;
  if (!own || own.sceneIds.length !== scenes.length) return byDefault;
  const byId = new Map(scenes.map((s) => [s.id, s]));
  const ordered = own.sceneIds.map((id) => byId.get(id));
  return ordered.every((s): s is S => s !== undefined) && new Set(own.sceneIds).size === scenes.length
    ? ordered
    : byDefault;
}
