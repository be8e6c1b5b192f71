import { getTranslations } from "next-intl/server";
import type { Person } from "@/lib/results/stats";
import { RichText } from "@/components/ui/rich-text";
import { StudentLabel } from "./student-label";

/** Past this many, the list starts folded (a school of 1,000 would bury the chart). */
const OPEN_UP_TO = 40;
/** Names listed at most: a whole school unfiltered (1,000 × 20 scenes) would make the page megabytes; a class fits. */
const LIST_UP_TO = 100;

/** The students the activity is for who have not answered this scene yet, in class order (names hidden with NamesToggle). */
export async function NotAnswered({ sceneId, students }: { sceneId: string; students: Person[] }) {
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
    <details className="not-answered" open={students.length <= OPEN_UP_TO} data-testid="not-answered">
      <summary id={id}>
        <RichText text={t("notAnswered", { count: students.length })} />
      </summary>
      <ul className="bare-list not-answered-list" aria-labelledby={id}>
        {students.slice(0, LIST_UP_TO).map((s) => (
          <li key={s.id} className="who">
            <StudentLabel who={s} />
          </li>
        ))}
      </ul>
      {students.length > LIST_UP_TO ? (
        <p className="muted" data-testid="not-answered-more">
          <RichText text={t("notAnsweredMore", { count: students.length - LIST_UP_TO })} />
        </p>
      ) : null}
    </details>
  );
}
