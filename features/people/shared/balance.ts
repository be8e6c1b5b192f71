/**
 * "Assign balanced" (docs/product-design.md "Activities", counterbalancing): spreads students evenly over
 * the groups, Latin-square style: within each class the groups follow class
 * number order (A, B, A, B, …), and each class starts one group later than the
 * class before, so that neither group always gets the first numbers. Stable:
 * the same students and groups always give the same assignment.
 */
export interface BalanceStudent {
  id: string;
  /** Null for a student without a seat yet (imported): they come after every class, in id order. */
  grade: number | null;
  className: string | null;
  number: number | null;
}

const LAST = Number.MAX_SAFE_INTEGER;

export function assignBalanced(students: BalanceStudent[], groups: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (groups.length === 0) return out;
  const sorted = [...students].sort(
    (a, b) =>
      (a.grade ?? LAST) - (b.grade ?? LAST) ||
      (a.className ?? "\uffff").localeCompare(b.className ?? "\uffff", "ja", { numeric: true }) ||
      (a.number ?? LAST) - (b.number ?? LAST) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let classIndex = -1;
  let previous = "";
  let position = 0;
  for (const s of sorted) {
    const key = `${s.grade}/${s.className}`;
    if (key !== previous) {
      classIndex += 1;
      previous = key;
      position = 0;
    }
    out.set(s.id, groups[(position + classIndex) % groups.length]!);
    position += 1;
  }
  return out;
}
