import { getTranslations } from "next-intl/server";
import type { Person } from "@/features/results/server/stats";
import { RichText } from "@/platform/ui/rich-text";
import { firstPart, ShowAll } from "./show-all";
import { StudentLabel } from "./student-label";

/** Past this many, the list starts folded (a school of 1,000 would bury the chart). */
const OPEN_UP_TO = 40;

/**
 * The students the activity is for who have not answered this scene yet, in
 * class order (names hidden with NamesToggle): the first part, then "show all"
 * (`whole`: this list was asked for whole, at `showHref`).
 */
export async function NotAnswered({
  sceneId,
  students,
  whole,
  showHref,
}: {
  sceneId: string;
  students: Person[];
  whole: boolean;
  showHref: string;
}) {
  const t = await getTranslations("Results");
  if (students.length === 0) {
    return (
      <p className="muted" data-testid="all-answered">
        <RichText text={t("allAnswered")} />
      </p>
    );
  }
  const id = `not-answered-${sceneId}`;
  return (
    <details
      id={`missing-${sceneId}`}
      className="not-answered"
      open={whole || students.length <= OPEN_UP_TO}
      data-testid="not-answered"
    >
      <summary id={id}>
        <RichText text={t("notAnswered", { count: students.length })} />
      </summary>
      <ul className="bare-list not-answered-list" aria-labelledby={id}>
        {firstPart(students, whole).map((s) => (
          <li key={s.id} className="who">
            <StudentLabel who={s} />
          </li>
        ))}
      </ul>
      <ShowAll total={students.length} whole={whole} href={showHref} />
    </details>
  );
}
