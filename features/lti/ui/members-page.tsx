import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { getActivityWithScenes } from "@/features/activities/server/queries";
import { requireRole } from "@/platform/auth/session";
import { authorizeSchool } from "@/platform/auth/scope";
import { RichText } from "@/platform/ui/rich-text";
import { compareMembers, type Person } from "@/features/lti/server/members";

function People({ people, testId, title }: { people: Person[]; testId: string; title: string }) {
  return (
    <section className="card stack" data-testid={testId} data-count={people.length}>
      <h2>
        <RichText text={title} />
      </h2>
      {people.length === 0 ? (
        <p className="muted">—</p>
      ) : (
        <ul>
          {people.map((p) => (
            <li key={p.sourcedId} data-sourced-id={p.sourcedId}>
              {p.name ? `${p.name}（${p.sourcedId}）` : p.sourcedId}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The teacher's comparison of the 学習eポータル's class (the context they launched this activity from, NRPS) with our
 * class, by sourcedId (features/lti/server/members.ts), or why there is none.
 */
export async function MembersPage({ activityId }: { activityId: string }) {
  const actor = await requireRole("teacher");
  const scope = await authorizeSchool(actor, undefined);
  const activity = scope ? await getActivityWithScenes(scope, activityId) : null;
  if (!scope || !activity) notFound();
  const t = await getTranslations("LtiMembers");
  const result = await compareMembers(actor.id, scope, activity.id);
  return (
    <div className="stack">
      <h1>
        <RichText text={t("title", { title: activity.title })} />
      </h1>
      {result.ok ? (
        <>
          <p data-testid="members-class" data-matched={result.matched}>
            <RichText text={t("lead", { className: result.className, matched: result.matched })} />
          </p>
          <People people={result.portalOnly} testId="members-portal-only" title={t("portalOnly")} />
          <People people={result.oursOnly} testId="members-ours-only" title={t("oursOnly")} />
        </>
      ) : (
        <p role="alert" className="alert alert-error" data-testid="members-error" data-reason={result.reason}>
          <RichText text={t(result.reason)} />
        </p>
      )}
    </div>
  );
}
