import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { listSchoolPeople, type SchoolPerson } from "@/features/people/server/school-queries";
import { authorizeSchool } from "@/platform/auth/scope";
import { GraduatedIn } from "@/features/people/ui/graduated-in";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";

type T = Awaited<ReturnType<typeof getTranslations<"ManageSchools">>>;
type TL = Awaited<ReturnType<typeof getTranslations<"SigninLog">>>;

type Kind = "teachers" | "students" | "graduates";
const EMPTY = { teachers: "noTeachers", students: "noStudents", graduates: "noGraduates" } as const;

function PeopleTable({
  people,
  kind,
  t,
  ts,
  tl,
}: {
  people: SchoolPerson[];
  kind: Kind;
  t: T;
  ts: Awaited<ReturnType<typeof getTranslations<"Schools">>>;
  tl: TL;
}) {
  if (people.length === 0) {
    return (
      <p className="empty" data-testid={`no-${kind}`}>
        <RichText text={t(EMPTY[kind])} />
      </p>
    );
  }
  const seat = (p: SchoolPerson) =>
    p.seat && p.seat.grade !== null && p.seat.className !== null && p.seat.number !== null
      ? t("seat", { grade: p.seat.grade, className: p.seat.className, number: p.seat.number })
      : t("seatUnset");
  return (
    <div className="table-wrap">
      <table className="table" data-testid={`${kind}-table`}>
        <thead>
          <tr>
            {kind !== "teachers" ? (
              <th scope="col">
                <RichText text={t("colSeat")} />
              </th>
            ) : null}
            {(["colName", "colEmail", "colStatus"] as const).map((k) => (
              <th key={k} scope="col">
                <RichText text={ts(k)} />
              </th>
            ))}
            <th scope="col">
              <RichText text={t("colMethods")} />
            </th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr key={p.id} data-person-id={p.id}>
              {kind !== "teachers" ? (
                <td className="nowrap">
                  <RichText text={seat(p)} />
                  <GraduatedIn year={p.graduatedYear} />
                </td>
              ) : null}
              <th scope="row">{p.name ? <PersonName name={{ base: p.name, reading: p.nameKana }} /> : null}</th>
              <td>{p.email}</td>
              <td>
                <RichText text={p.disabled ? ts("disabled") : ts("active")} />
              </td>
              <td data-testid="signin-methods" data-methods={p.methods.join(" ")}>
                <RichText
                  text={p.methods.length > 0 ? p.methods.map((m) => tl(`methods.${m}`)).join("・") : t("noMethods")}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /dashboard/manager/schools/{schoolId}: one school's teachers and students, read-only, with their counts. */
export async function SchoolPeople({ schoolId }: { schoolId: string }) {
  const actor = await requireRole("manager");
  const scope = await authorizeSchool(actor, schoolId);
  const data = scope ? await listSchoolPeople(scope) : null;
  if (!data) notFound();
  const [t, ts, tr, tl, tf] = await Promise.all([
    getTranslations("ManageSchools"),
    getTranslations("Schools"),
    getTranslations("Rollover"),
    getTranslations("SigninLog"),
    getTranslations("Furigana"),
  ]);
  return (
    <div className="stack">
      <p>
        <Link href="/dashboard/manager/schools" data-testid="back-to-schools">
          <RichText text={t("back")} />
        </Link>
      </p>
      <h1>
        <PersonName name={{ base: data.school.name, reading: data.school.nameKana }} />
      </h1>
      <p className="muted">
        <RichText text={t("readOnly")} />
      </p>
      <p className="row">
        <RichText text={tr("currentYear", { year: data.school.currentYear })} />
        <Link
          href={`/dashboard/manager/schools/${data.school.id}/rollover`}
          className="button button-small"
          data-testid="open-rollover"
        >
          <RichText text={tr("open")} />
        </Link>
        <Link
          href={`/dashboard/manager/schools/${data.school.id}/readings`}
          className="button button-small"
          data-testid="open-readings"
        >
          <RichText text={tf("openReadings")} />
        </Link>
      </p>
      {(["teachers", "students", "graduates"] as const).map((kind) => (
        <section key={kind} className="stack" aria-labelledby={`${kind}-heading`}>
          <h2 id={`${kind}-heading`} data-testid={`${kind}-heading`}>
            <RichText text={t(`${kind}Heading`, { count: data[kind].length })} />
          </h2>
          <PeopleTable people={data[kind]} kind={kind} t={t} ts={ts} tl={tl} />
        </section>
      ))}
    </div>
  );
}
