import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { Actor } from "@/platform/auth/session";
import { listSchoolsForAcademy } from "@/features/people/server/school-queries";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";

/** Manager home: the academy's schools with teachers, students and activities. */
export async function ManagerSchools({ actor }: { actor: Actor }) {
  const t = await getTranslations("Manager");
  const schools = actor.academyId ? await listSchoolsForAcademy(actor.academyId) : [];
  return (
    <section className="stack" aria-labelledby="schools-title">
      <h2 id="schools-title">
        <RichText text={t("title")} />
      </h2>
      {schools.length === 0 ? (
        <p className="empty">
          <RichText text={t("empty")} />
        </p>
      ) : (
        <ul className="school-grid" data-testid="school-list">
          {schools.map((s) => (
            <li key={s.id} className="card stack" data-school-id={s.id}>
              <h3>
                <PersonName name={{ base: s.name, reading: s.nameKana }} />
              </h3>
              <dl className="counts">
                {(["teachers", "students", "activities"] as const).map((k) => (
                  <div key={k}>
                    <dt>
                      <RichText text={t(k)} />
                    </dt>
                    <dd data-testid={`count-${k}`}>{s[k]}</dd>
                  </div>
                ))}
              </dl>
              <Link href={`/dashboard/manager/activities/${s.id}`} className="button">
                <RichText text={t("open")} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
