import { getTranslations } from "next-intl/server";
import { groupWords } from "@/features/scenes/shared/word-cloud";
import { WordCounts } from "@/features/scenes/ui/word-cloud-view";
import { notFound } from "next/navigation";
import { getActivityWithScenes } from "@/features/activities/server/queries";
import { requireRole } from "@/platform/auth/session";
import { getPlainText } from "@/platform/i18n/server";
import { filterFromParams, filterQuery, showFromParams } from "@/features/results/shared/schema";
import { activityStats, type SceneStats } from "@/features/results/server/stats";
import { authorizeSchool } from "@/platform/auth/scope";
import { RichText } from "@/platform/ui/rich-text";
import { BarChart } from "./bar-chart";
import { CrossTable } from "./cross-table";
import { DrawingGallery } from "./drawing-gallery";
import { ExportLinks } from "./export-links";
import { NamesToggle } from "./names-toggle";
import { BlankResults, NumberResults } from "@/features/scenes/ui/typed-results-view";
import { blanksOf } from "@/features/scenes/shared/fill-blanks";
import { NotAnswered } from "./not-answered";
import { CorrectRateLine, FreeTexts, Respondents } from "./stats-lists";
import { KeyedStats } from "./keyed-stats";
import { classKeyOf, type SchoolClass } from "@/features/people/shared/class-key";

type Params = Promise<Record<string, string | string[] | undefined>>;

function allSecondOptions(stats: SceneStats) {
  if (stats.scene.type !== "two_step") return [];
  const c = stats.scene.content;
  const all = [...(c.second.options ?? []), ...Object.values(c.second.optionsByFirst ?? {}).flat()];
  return all.filter((o, i) => all.findIndex((x) => x.id === o.id) === i);
}

/** The 1–5 of a scale, its two ends with their labels (rich text, as the student saw them). */
function scaleBars(c: { minLabel: string; maxLabel: string }) {
  const ends: Record<number, string> = { 1: c.minLabel, 5: c.maxLabel };
  return [1, 2, 3, 4, 5].map((v) => ({ id: String(v), label: ends[v] ? `${v}（${ends[v]}）` : String(v) }));
}

/** One filter of the stats page ("all" or one value), sent with the GET form. */
function FilterSelect({
  name,
  label,
  value,
  all,
  options,
}: {
  name: string;
  label: string;
  value?: string;
  all: string;
  options: [string, string][];
}) {
  return (
    <label className="field field-inline">
      <span className="field-label">
        <RichText text={label} />
      </span>
      <select name={name} defaultValue={value ?? ""} data-testid={`filter-${name}`}>
        <option value="">{all}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a scene's numbers need from the page: the activity, the school, the filter and the list shown whole. */
interface SceneContext {
  activityId: string;
  scope: NonNullable<Awaited<ReturnType<typeof authorizeSchool>>>;
  role: "teacher" | "manager";
  filter: ReturnType<typeof filterFromParams>;
  show: ReturnType<typeof showFromParams>;
  showHref: (key: string) => string;
}

/** The filters (group, class, mode) sent with a GET form, and the exports. */
async function FilterForm({
  filter,
  groups,
  classes,
  activityId,
  query,
  schoolParam,
}: {
  filter: ReturnType<typeof filterFromParams>;
  groups: string[];
  classes: SchoolClass[];
  activityId: string;
  query: string;
  schoolParam: string;
}) {
  const t = await getTranslations("Results");
  const ta = await getTranslations("Activities");
  const ts = await getTranslations("Students");
  const plain = await getPlainText();
  const exportQuery = (extra: string) => [schoolParam, extra].filter(Boolean).join("&");
  return (
    <form className="row wrap toolbar no-print" method="get" data-testid="stats-filter">
      <FilterSelect
        name="group"
        label={t("group")}
        value={filter.group}
        all={plain(t("all"))}
        options={groups.map((g) => [g, g])}
      />
      <FilterSelect
        name="class"
        label={t("class")}
        value={filter.class}
        all={plain(t("all"))}
        options={classes.map((c) => [classKeyOf(c.grade, c.className)!, plain(ts("classLabel", { ...c }))])}
      />
      <FilterSelect
        name="mode"
        label={t("mode")}
        value={filter.mode}
        all={plain(t("all"))}
        options={[
          ["guide", plain(ta("modeGuide"))],
          ["self", plain(ta("modeSelf"))],
        ]}
      />
      <button type="submit" className="button" data-testid="apply-filter">
        <RichText text={t("apply")} />
      </button>
      <span className="top-bar-spacer" />
      <ExportLinks
        links={[
          {
            href: `/api/v1/exports/${activityId}/results?${exportQuery(query)}`,
            label: t("exportResults"),
            testId: "export-results",
          },
          {
            href: `/api/v1/exports/${activityId}/responses?${exportQuery("")}`,
            label: t("exportResearch"),
            testId: "export-research",
          },
          {
            href: `/api/v1/exports/${activityId}/responses?${exportQuery("pseudonymous=1")}`,
            label: t("exportPseudonymous"),
            testId: "export-research-pseudo",
          },
        ]}
      />
    </form>
  );
}

/** The numbers of one version of a scene; the cross-table's reasons and the drawings load for the current version only. */
async function SceneNumbers({ s, current, ctx }: { s: SceneStats; current: boolean; ctx: SceneContext }) {
  const t = await getTranslations("Results");
  return (
    <>
      <p className="muted">
        <RichText text={s.scene.type === "info" ? t("infoScene") : t("answeredCount", { count: s.answered })} />
      </p>
      {s.correct ? <CorrectRateLine rate={s.correct} /> : null}
      {s.scene.type === "single_choice" || s.scene.type === "multiple_choice" ? (
        <BarChart total={s.answered} bars={s.scene.content.options} counts={s.choices} />
      ) : null}
      {s.scene.type === "scale" ? (
        <>
          <BarChart total={s.answered} bars={scaleBars(s.scene.content)} counts={s.values} />
          <p data-testid="median" data-median={s.median ?? ""}>
            <RichText text={t("median", { median: s.median ?? "—" })} />
          </p>
        </>
      ) : null}
      {s.scene.type === "two_step" && current ? (
        <CrossTable
          activityId={ctx.activityId}
          schoolId={ctx.role === "manager" ? ctx.scope : undefined}
          sceneId={s.id}
          filter={ctx.filter}
          cross={s.cross}
          firsts={s.scene.content.first.options.map((o) => ({ id: o.id, label: <RichText text={o.label} /> }))}
          seconds={allSecondOptions(s).map((o) => ({ id: o.id, label: <RichText text={o.label} /> }))}
        />
      ) : null}
      {s.scene.type === "ordering" || s.scene.type === "matching" ? <KeyedStats s={s} /> : null}
      {s.scene.type === "drawing" && current ? (
        <DrawingGallery
          stats={s}
          schoolId={ctx.scope}
          activityId={ctx.activityId}
          whole={ctx.show === `drawings-${s.id}`}
          showHref={ctx.showHref(`drawings-${s.id}`)}
        />
      ) : null}
      {s.scene.type === "fill_blanks" ? (
        <BlankResults blanks={blanksOf(s.scene.content.text).length} counts={s.typed} total={s.answered} />
      ) : null}
      {s.scene.type === "number" ? (
        <NumberResults unit={s.scene.content.unit ?? null} counts={s.typed} total={s.answered} />
      ) : null}
      {s.scene.type === "word_cloud" ? (
        <WordCounts words={groupWords(Object.entries(s.typed.words ?? {}).map(([word, n]) => ({ word, n })))} />
      ) : null}
      {s.scene.type === "free_text" ? (
        <FreeTexts stats={s} whole={ctx.show === `texts-${s.id}`} showHref={ctx.showHref(`texts-${s.id}`)} />
      ) : null}
    </>
  );
}

/** One scene's numbers, who has not answered it, and its earlier versions' numbers. */
async function SceneSection({ s, i, ctx }: { s: SceneStats; i: number; ctx: SceneContext }) {
  const t = await getTranslations("Results");
  return (
    <section
      className="card stack scene-stats"
      data-scene-id={s.id}
      data-scene-type={s.scene.type}
      data-answered={s.answered}
      aria-labelledby={`scene-${s.id}`}
    >
      <h2 id={`scene-${s.id}`}>
        <span className="muted">{i + 1}. </span>
        <RichText text={s.scene.content.prompt} />
        {s.earlier.length > 0 ? (
          <span className="badge" data-testid="current-version" data-version={s.version}>
            <RichText text={t("currentVersion", { v: s.version })} />
          </span>
        ) : null}
      </h2>
      <SceneNumbers s={s} current ctx={ctx} />
      {s.scene.type === "info" ? null : (
        <NotAnswered
          sceneId={s.id}
          students={s.notAnswered}
          whole={ctx.show === `missing-${s.id}`}
          showHref={ctx.showHref(`missing-${s.id}`)}
        />
      )}
      {s.earlier.map((e) => (
        <details
          key={e.version}
          className="stack earlier-version"
          data-testid="earlier-version"
          data-version={e.version}
          data-answered={e.answered}
        >
          <summary>
            <RichText text={t("earlierVersion", { v: e.version, count: e.answered })} />
          </summary>
          <p>
            <RichText text={e.scene.content.prompt} />
          </p>
          <SceneNumbers s={e} current={false} ctx={ctx} />
        </details>
      ))}
    </section>
  );
}

/** Statistics of one activity (teacher, or manager for a school of the academy): overview, per scene, filters, exports. */
export async function StatsPage({
  role,
  activityId,
  schoolId,
  searchParams,
}: {
  role: "teacher" | "manager";
  activityId: string;
  schoolId?: string;
  searchParams: Params;
}) {
  const actor = await requireRole(role);
  const scope = await authorizeSchool(actor, schoolId);
  const activity = scope ? await getActivityWithScenes(scope, activityId) : null;
  if (!scope || !activity) notFound();
  const params = await searchParams;
  const filter = filterFromParams(params);
  const stats = await activityStats(scope, activity.id, filter);
  if (!stats) notFound();
  const t = await getTranslations("Results");
  const common = await getTranslations("Common");
  const query = filterQuery(filter);
  const show = showFromParams(params);
  const pagePath =
    role === "teacher"
      ? `/dashboard/teacher/activities/stats/${activity.id}`
      : `/dashboard/manager/activities/stats/${scope}/${activity.id}`;
  // the same page (same filters, same loader and checks) with one long list whole, scrolled to it
  const showHref = (key: string) => `${pagePath}?${[query, `show=${key}`].filter(Boolean).join("&")}#${key}`;
  const responseBase =
    role === "teacher"
      ? `/dashboard/teacher/activities/response/${activity.id}`
      : `/dashboard/manager/activities/response/${scope}/${activity.id}`;
  const overview = [
    ["assigned", stats.overview.assigned],
    ["started", stats.overview.started],
    ["finished", stats.overview.finished],
    ["inGuide", stats.overview.guide],
    ["inSelf", stats.overview.self],
  ] as const;
  const ctx: SceneContext = { activityId: activity.id, scope, role, filter, show, showHref };
  return (
    <div className="stack results-page">
      <h1>
        <RichText text={t("title", { title: activity.title })} />
      </h1>
      <p className="muted" data-testid="results-year">
        <RichText text={common("academicYear", { year: stats.academicYear })} />
      </p>
      <FilterForm
        filter={filter}
        groups={stats.groups}
        classes={stats.classes}
        activityId={activity.id}
        query={query}
        schoolParam={role === "manager" ? `school=${scope}` : ""}
      />
      <dl className="counts overview" data-testid="overview">
        {overview.map(([key, n]) => (
          <div key={key} data-key={key} data-count={n}>
            <dt>
              <RichText text={t(key)} />
            </dt>
            <dd>{n}</dd>
          </div>
        ))}
      </dl>
      <NamesToggle>
        {stats.scenes.map((s, i) => (
          <SceneSection key={s.id} s={s} i={i} ctx={ctx} />
        ))}
      </NamesToggle>
      <Respondents
        stats={stats}
        responseBase={responseBase}
        whole={show === "respondents"}
        showHref={showHref("respondents")}
      />
    </div>
  );
}
