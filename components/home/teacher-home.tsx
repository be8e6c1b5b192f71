import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { listActivitiesForSchool } from "@/lib/activities/data";
import type { Actor } from "@/lib/auth/session";
import { authorizeSchool } from "@/lib/schools/scope";
import { RichText } from "@/components/ui/rich-text";

const MODE_KEY = { standby: "modeStandby", guide: "modeGuide", self: "modeSelf", complete: "modeComplete" } as const;

/** Teacher home: activities running now (guide or self) with their respondents, and the way to add one. */
export async function TeacherRunning({ actor }: { actor: Actor }) {
  const t = await getTranslations("Activities");
  const school = await authorizeSchool(actor, undefined);
  const running = school ? (await listActivitiesForSchool(school, "active")).filter((a) => a.mode === "guide" || a.mode === "self") : [];
  return (
    <section className="stack" aria-labelledby="running-title">
      <h2 id="running-title">
        <RichText text={t("running")} />
      </h2>
      {running.length === 0 ? (
        <p className="empty" data-testid="none-running">
          <RichText text={t("noneRunning")} />{" "}
          <Link href="/dashboard/teacher/activities#library">
            <RichText text={t("addFromLibrary")} />
          </Link>
        </p>
      ) : (
        <ul className="school-grid" data-testid="running-list">
          {running.map((a) => (
            <li key={a.id} className="card stack">
              <h3>
                <RichText text={a.title} />
              </h3>
              <p className="muted">
                <RichText text={t(MODE_KEY[a.mode])} /> ・ <RichText text={t("respondentsCount", { count: a.respondents })} />
              </p>
              <div className="row">
                {a.mode === "guide" ? (
                  <Link className="button button-primary" href={`/dashboard/teacher/activities/guide/${a.id}`}>
                    <RichText text={t("guide")} />
                  </Link>
                ) : null}
                <Link className="button" href={`/dashboard/teacher/activities/stats/${a.id}`}>
                  <RichText text={t("stats")} />
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link href="/dashboard/teacher/activities" className="button" data-testid="manage-link">
          <RichText text={t("manageLink")} />
        </Link>
      </p>
    </section>
  );
}
