import { getTranslations } from "next-intl/server";
import { requireRole } from "@/platform/auth/session";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import {
  libraryAcademyOf,
  listAcademySchools,
  listLibraryEntries,
  type LibraryRow,
} from "@/features/activities/server/library-queries";
import {
  LIBRARY_PAGE_SIZE,
  type LibraryFilter as Filter,
  libraryFilterSchema,
} from "@/features/activities/shared/library-schema";
import { Pager } from "@/platform/ui/pager";
import { PersonName } from "@/platform/ui/person-name";
import { RichMessage, SLOT } from "@/platform/ui/rich-message";
import { RichText } from "@/platform/ui/rich-text";
import { CopyEntry } from "./copy-entry";
import { LibraryFilter } from "./library-filter";
import { ManageEntry } from "./manage-entry";

type Params = Promise<Record<string, string | string[] | undefined>>;

function href(base: string, filter: Filter, page: number) {
  const params = new URLSearchParams();
  for (const key of ["q", "subject", "grade", "unit"] as const) if (filter[key]) params.set(key, filter[key]);
  if (page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `${base}?${s}` : base;
}

async function EntryCard({
  row,
  manager,
  schools,
}: {
  row: LibraryRow;
  manager: boolean;
  schools?: { id: string; name: string }[];
}) {
  const [t, ta, lang] = await Promise.all([
    getTranslations("Library"),
    getTranslations("Activities"),
    getDisplayLanguage(),
  ]);
  const tags = [row.subject ? t(`subjects.${row.subject}`) : null, row.grade ? t(`grades.${row.grade}`) : null].filter(
    (x): x is string => x !== null,
  );
  return (
    <li className="card template-card" data-testid="library-entry" data-entry-id={row.id}>
      <h3>
        <RichText text={row.title} />
      </h3>
      <p className="row wrap small" data-testid="library-tags">
        {tags.map((tag) => (
          <span key={tag} className="badge">
            <RichText text={tag} />
          </span>
        ))}
        {row.unit ? (
          <span className="badge">
            <RichText text={row.unit} />
          </span>
        ) : null}
      </p>
      <p className="muted small">
        <RichText text={ta("sceneCount", { count: row.sceneCount })} /> ・{" "}
        <RichText text={ta(row.actorType === "student" ? "actorStudent" : "actorTeacher")} />
      </p>
      <p className="muted small">
        {row.school ? (
          <RichMessage
            text={t("from", { school: SLOT })}
            slots={[<PersonName key="s" name={{ base: row.school.name, reading: row.school.nameKana }} />]}
          />
        ) : (
          <RichText text={t(row.bundled ? "fromBundled" : "fromUnknown")} />
        )}{" "}
        ・ <RichText text={t("publishedAt", { date: formatDateTime(row.publishedAt, lang) })} />
      </p>
      <details className="template-preview">
        <summary>
          <RichText text={ta("preview")} />
        </summary>
        <ol>
          {row.prompts.map((prompt, i) => (
            <li key={i}>
              <RichText text={prompt} />
            </li>
          ))}
        </ol>
      </details>
      <CopyEntry entryId={row.id} schools={schools} />
      {manager ? (
        <ManageEntry entryId={row.id} tags={{ subject: row.subject, grade: row.grade, unit: row.unit }} />
      ) : null}
    </li>
  );
}

/**
 * The academy library (docs/product-design.md "The academy library"): the
 * entries of the actor's academy only, searched and filtered by the URL,
 * paged; teachers copy into their school, managers into a school of the
 * academy, and also retag and withdraw.
 */
export async function LibraryScreen({ role, searchParams }: { role: "teacher" | "manager"; searchParams: Params }) {
  const actor = await requireRole(role);
  const t = await getTranslations("Library");
  const academy = await libraryAcademyOf(actor);
  if (!academy) {
    return (
      <p className="alert alert-error" role="alert" data-testid="no-academy">
        <RichText text={t("noAcademy")} />
      </p>
    );
  }
  const filter = libraryFilterSchema.parse(await searchParams);
  const [{ rows, total }, schools] = await Promise.all([
    listLibraryEntries(academy, filter),
    role === "manager" ? listAcademySchools(academy) : undefined,
  ]);
  const base = `/dashboard/${role}/library`;
  const pages = Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));
  const filtered = Boolean(filter.q || filter.subject || filter.grade || filter.unit);
  return (
    <div className="stack">
      <h1>
        <RichText text={t("title")} />
      </h1>
      <p className="muted">
        <RichText text={t("lead")} />
      </p>
      <LibraryFilter action={base} filter={filter} total={total} />
      {rows.length === 0 ? (
        <p className="muted" role="status" data-testid="library-empty">
          <RichText text={filtered || filter.page > 1 ? t("noMatch") : t("empty")} />
          {!filtered && role === "manager" ? (
            <>
              {" "}
              <RichText text={t("emptyManager")} />
            </>
          ) : null}
        </p>
      ) : (
        <ul className="template-grid" data-testid="library-list">
          {rows.map((row) => (
            <EntryCard key={row.id} row={row} manager={role === "manager"} schools={schools} />
          ))}
        </ul>
      )}
      <Pager page={filter.page} pages={pages} hrefOf={(page) => href(base, filter, page)} />
    </div>
  );
}
