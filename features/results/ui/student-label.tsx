import { useTranslations } from "next-intl";
import type { Person } from "@/features/results/server/stats";
import { PersonName } from "@/platform/ui/person-name";
import { RichTextClient } from "@/platform/ui/rich-text-client";

// Neither a client nor a server module: rendered on the server from the stats page (no props
// serialised into the page's RSC payload, one per student listed) and in the browser from CrossTable.

/** 年・組・番号 in the display language (１年２組３番 / reading / kana); null when the seat is not fully set. */
export function SeatLabel({ seat }: { seat: Person["seat"] }) {
  const t = useTranslations("Results");
  if (seat.grade === null || seat.className === null || seat.number === null) return null;
  return <RichTextClient text={t("seat", { grade: seat.grade, className: seat.className, number: seat.number })} />;
}

/** A student in results: seat, then the full name with its reading by display language. */
export function StudentLabel({ who }: { who: Person }) {
  return (
    <span className="student-label">
      <span className="muted">
        <SeatLabel seat={who.seat} />
      </span>{" "}
      <PersonName name={who.name} />
    </span>
  );
}
