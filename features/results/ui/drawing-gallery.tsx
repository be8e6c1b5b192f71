import { getTranslations } from "next-intl/server";
import { drawingLabel } from "@/features/scenes/ui/answer-drawings";
import { DrawingSvg } from "@/features/scenes/ui/drawing-svg";
import { imageUrl } from "@/features/scenes/shared/image-limits";
import { drawingAnswers } from "@/features/results/server/drawings-queries";
import type { SceneStats } from "@/features/results/server/stats";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { RichText } from "@/platform/ui/rich-text";
import { MarkBadge } from "@/features/results/ui/mark-badge";
import { firstPart, ShowAll } from "./show-all";
import { StudentLabel } from "./student-label";

/**
 * One drawing scene's pictures as thumbnails drawn on the server, each with
 * who drew it (hidden with the names toggle like every name on the page):
 * the first part, then "show all". Only the shown part's strokes are loaded.
 */
export async function DrawingGallery({
  stats,
  schoolId,
  activityId,
  whole,
  showHref,
}: {
  stats: SceneStats;
  schoolId: AuthorizedSchoolId;
  activityId: string;
  whole: boolean;
  showHref: string;
}) {
  const t = await getTranslations("Results");
  if (stats.drawings.length === 0) {
    return (
      <p className="empty">
        <RichText text={t("noDrawings")} />
      </p>
    );
  }
  const shown = firstPart(stats.drawings, whole);
  const answers = await drawingAnswers(
    schoolId,
    activityId,
    stats.id,
    shown.map((d) => d.who.id),
  );
  const label = await drawingLabel();
  const { scene } = stats;
  const background =
    scene.type === "drawing" && scene.content.onImage && scene.content.image
      ? imageUrl(scene.content.image.id)
      : undefined;
  return (
    <div id={`drawings-${stats.id}`} className="stack">
      <ul className="bare-list drawing-gallery" data-testid="drawing-gallery">
        {shown.map((d) => (
          <li key={d.who.id}>
            <figure className="stack">
              <DrawingSvg answer={answers.get(d.who.id)} label={label} background={background} />
              <figcaption className="who muted">
                <StudentLabel who={d.who} />
              </figcaption>
              <MarkBadge mark={d.mark} />
            </figure>
          </li>
        ))}
      </ul>
      <ShowAll total={stats.drawings.length} whole={whole} href={showHref} />
    </div>
  );
}
