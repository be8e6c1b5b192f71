/**
 * A student's seat (grade, class, attendance number). Students imported from
 * the legacy product have none until a teacher sets it (all three null).
 */
export interface Seat {
  grade: number | null;
  className: string | null;
  number: number | null;
}

/** "1-2-3" for results tables; null when the seat is not (fully) set. */
export function seatCode(seat: Seat | null | undefined): string | null {
  if (!seat || seat.grade === null || seat.className === null || seat.number === null) return null;
  return `${seat.grade}-${seat.className}-${seat.number}`;
}
