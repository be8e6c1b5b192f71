import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { listActivitiesForSchool, listRecentlyAnswered } from "@/features/activities/server/queries";
import type { Actor } from "@/platform/auth/session";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { authorizeSchool } from "@/platform/auth/scope";
import { ModeSelect } from "@/features/activities/ui/mode-select";
import { RichText } from "@/platform/ui/rich-text";

/**
 * Teacher home: activities running now (guide or self) with quick actions
 * (guide screen, mode, results), the most recent results, and shortcuts.
 */
export async function TeacherRunning({ actor }: { actor: Actor }) {
  const t = await getTranslations("Activities");
  const nav = await getTranslations("Nav");
  const lang = await getDisplayLanguage();
  const school = await authorizeSchool(actor, undefined);
  const [all, recent] = school
    ? await Promise.all([listActivitiesForSchool(school, "active"), listRecentlyAnswered(school)])
    : [[], []];
  const running = all.filter((a) => a.mode === "guide" || a.mode === "self");
  return (
    <>
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
              <RunningCard key={a.id} a={a} />
            ))}
          </ul>
        )}
      </section>
      <section className="stack" aria-labelledby="recent-title">
        <h2 id="recent-title">
          <RichText text={t("recent")} />
        </h2>
        {recent.length === 0 ? (
          <p className="empty">
            <RichText text={t("noRecent")} />
          </p>
        ) : (
          <ul className="plain-list" data-testid="recent-list">
            {recent.map((r) => (
              <li key={r.id}>
                <Link href={`/dashboard/teacher/activities/stats/${r.id}`}>
                  <RichText text={r.title} />
                </Link>{" "}
                <span className="muted">
                  <RichText text={t("respondentsCount", { count: r.respondents })} /> ・{" "}
                  <RichText text={formatDateTime(r.last, lang)} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <nav className="row" aria-label={t("shortcuts")}>
        <Link href="/dashboard/teacher/activities" className="button" data-testid="manage-link">
          <RichText text={t("manageLink")} />
        </Link>
        <Link href="/dashboard/teacher/students" className="button">
          <RichText text={nav("students")} />
        </Link>
      </nav>
    </>
  );
}

/** An activity running now: its respondents, its mode, and its guide screen (in guide mode) and results. */
async function RunningCard({ a }: { a: Awaited<ReturnType<typeof listActivitiesForSchool>>[number] }) {
  const t = await getTranslations("Activities");
  return (
    <li className="card stack" data-activity-id={a.id}>
      <h3>
        <RichText text={a.title} />
      </h3>
      <p className="muted">
        <RichText text={t("respondentsCount", { count: a.respondents })} />
      </p>
      <ModeSelect activityId={a.id} mode={a.mode} title={a.title} />
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
  );
}
