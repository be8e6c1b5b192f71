import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { listActivitiesForSchool, listActivityYears, listTemplates } from "@/features/activities/server/queries";
import { listPublishedActivityIds } from "@/features/activities/server/library-queries";
import { activityListFilterSchema } from "@/features/activities/shared/schema";
import { requireRole } from "@/platform/auth/session";
import { getSchoolName } from "@/features/people/server/school-queries";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage, getPlainText } from "@/platform/i18n/server";
import { authorizeSchool } from "@/platform/auth/scope";
import { PersonName } from "@/platform/ui/person-name";
import { RichMessage, SLOT } from "@/platform/ui/rich-message";
import { RichText } from "@/platform/ui/rich-text";
import { ActivityFilter } from "./activity-filter";
import { BlankActivity } from "./blank-activity";
import { ActivityTable } from "./activity-table";
import { ImportActivity } from "./import-activity";
import { PublishActivity } from "@/features/activities/ui/publish-activity";
import { TemplateLibrary } from "./template-library";

type Params = Promise<Record<string, string | string[] | undefined>>;

/**
 * Activity management (teacher: own school; manager: a school of the academy,
 * docs/requirements.md §2). A school outside the actor's scope is the no-access page: nothing of it leaks.
 */
export async function ActivityManagement({
  role,
  schoolId,
  searchParams,
}: {
  role: "teacher" | "manager";
  schoolId?: string;
  searchParams: Params;
}) {
  const actor = await requireRole(role);
  const t = await getTranslations("Activities");
  const scope = await authorizeSchool(actor, schoolId);
  if (!scope) {
    if (role === "manager") notFound();
    return (
      <p className="alert alert-error" role="alert" data-testid="no-school">
        <RichText text={t("errors.forbidden")} />
      </p>
    );
  }
  const filter = activityListFilterSchema.parse(await searchParams);
  const archived = filter.tab === "archived";
  const lang = await getDisplayLanguage();
  const plain = await getPlainText();
  const [rows, templates, school, published, years] = await Promise.all([
    listActivitiesForSchool(scope, archived ? "archived" : "active", {
      search: filter.q,
      mode: filter.mode,
      year: filter.year,
    }),
    listTemplates(),
    getSchoolName(scope),
    role === "manager" ? listPublishedActivityIds(scope) : ([] as string[]),
    listActivityYears(scope, archived ? "archived" : "active"),
  ]);
  const base = role === "teacher" ? "/dashboard/teacher/activities" : `/dashboard/manager/activities`;
  const here = role === "teacher" ? base : `${base}/${scope}`;
  const links = activityLinks(base, role === "teacher" ? null : scope);
  return (
    <div className="stack">
      <h1>
        {role === "manager" ? (
          <RichMessage
            text={t("schoolTitle", { school: SLOT })}
            slots={[<PersonName key="s" name={{ base: school.name, reading: school.nameKana }} />]}
          />
        ) : (
          <RichText text={t("title")} />
        )}
      </h1>
      <ActivityTabs here={here} archived={archived} label={plain(t("title"))} />
      <ActivityFilter action={here} filter={filter} count={rows.length} years={years} />
      <ActivityTable
        rows={rows.map(({ lastUsedAt, updatedAt: _, ...r }) => ({
          ...r,
          lastUsed: lastUsedAt ? formatDateTime(lastUsedAt, lang) : null,
        }))}
        archived={archived}
        filtered={Boolean(filter.q || filter.mode || filter.year)}
        schoolId={role === "manager" ? scope : undefined}
        links={links}
      />
      {!archived ? <ImportActivity schoolId={role === "manager" ? scope : undefined} /> : null}
      {!archived && role === "manager" ? (
        <PublishActivity
          schoolId={scope}
          activities={rows.map((r) => ({ id: r.id, title: r.title, published: published.includes(r.id) }))}
        />
      ) : null}
      {!archived ? <ActivityLibrary templates={templates} schoolId={role === "manager" ? scope : undefined} /> : null}
    </div>
  );
}

/** The row links of the list: a teacher's own school, or the named school of a manager. */
function activityLinks(base: string, scope: string | null) {
  return scope === null
    ? { edit: `${base}/edit`, preview: `${base}/preview`, guide: `${base}/guide`, stats: `${base}/stats` }
    : {
        edit: `${base}/edit/${scope}`,
        preview: `${base}/preview/${scope}`,
        guide: `${base}/guide/${scope}`,
        stats: `${base}/stats/${scope}`,
      };
}

/** The active and archived tabs. */
async function ActivityTabs({ here, archived, label }: { here: string; archived: boolean; label: string }) {
  const t = await getTranslations("Activities");
  return (
    <nav className="tabs" aria-label={label}>
      <Link href={here} className="tab" aria-current={!archived ? "page" : undefined} data-testid="tab-active">
        <RichText text={t("active")} />
      </Link>
      <Link
        href={`${here}?tab=archived`}
        className="tab"
        aria-current={archived ? "page" : undefined}
        data-testid="tab-archived"
      >
        <RichText text={t("archived")} />
      </Link>
    </nav>
  );
}

/** The library: a blank activity, and the templates with their scenes' preview. */
async function ActivityLibrary({
  templates,
  schoolId,
}: {
  templates: Awaited<ReturnType<typeof listTemplates>>;
  schoolId?: string;
}) {
  const t = await getTranslations("Activities");
  const edit = await getTranslations("Edit");
  return (
    <section className="stack" aria-labelledby="library-title" id="library">
      <h2 id="library-title">
        <RichText text={t("library")} />
      </h2>
      <p className="muted">
        <RichText text={t("libraryLead")} />
      </p>
      <BlankActivity schoolId={schoolId} />
      <TemplateLibrary
        templates={templates.map(({ scenes, ...tpl }) => ({
          ...tpl,
          sceneCount: scenes.length,
          preview: scenes.map((s, i) => (
            <li key={i}>
              <span className="order-type">
                <RichText text={edit(`types.${s.type}`)} />
              </span>{" "}
              <RichText text={String((s.content as { prompt?: unknown }).prompt ?? "")} />
            </li>
          )),
        }))}
        schoolId={schoolId}
      />
    </section>
  );
}
