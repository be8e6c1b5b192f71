import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { ActivityMode } from "@/features/activities/shared/schema";
import type { Actor } from "@/platform/auth/session";
import { listRespondentActivities, type RespondentActivity } from "@/features/play/server/answer-queries";
import { QueueDelivery } from "@/features/play/ui/queue-delivery";
import { RichText } from "@/platform/ui/rich-text";
import { HomeRefresh } from "./home-refresh";

const GROUPS: { mode: ActivityMode; title: "groupGuide" | "groupSelf" | "groupStandby" | "groupComplete" }[] = [
  { mode: "guide", title: "groupGuide" },
  { mode: "self", title: "groupSelf" },
  { mode: "standby", title: "groupStandby" },
  { mode: "complete", title: "groupComplete" },
];

function target(
  role: "student" | "teacher",
  a: RespondentActivity,
): { href: string; label: "join" | "start" | "continue" | "review" } | null {
  const area = `/dashboard/${role}/activities`;
  // 参加する only while the teacher runs the session; before that the card says it starts with the teacher
  if (a.mode === "guide" && role === "student" && a.live) return { href: `${area}/session/${a.id}`, label: "join" };
  if (a.mode === "self") return { href: `${area}/solo/${a.id}`, label: a.answered > 0 ? "continue" : "start" };
  if (a.mode === "complete" && role === "student") return { href: `${area}/response/${a.id}`, label: "review" };
  return null;
}

/**
 * A respondent's activities grouped by what they can do now: join the live
 * session (only while one runs), do it alone, wait, or review answers; with
 * progress over the answerable scenes. Follows mode changes and live sessions
 * starting and ending (HomeRefresh).
 */
export async function RespondentActivities({ actor, role }: { actor: Actor; role: "student" | "teacher" }) {
  const t = await getTranslations("Play");
  const ta = await getTranslations("Activities");
  if (!actor.schoolId) return null;
  const activities = await listRespondentActivities({ id: actor.id, role, schoolId: actor.schoolId });
  if (role === "teacher" && activities.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="my-activities" data-testid="my-activities">
      <HomeRefresh />
      <QueueDelivery userId={actor.id} />
      <h2 id="my-activities">
        <RichText text={role === "student" ? t("myActivities") : t("myTeacherActivities")} />
      </h2>
      {activities.length === 0 ? (
        <p className="empty" data-testid="no-activities">
          <RichText text={t("noActivities")} />
        </p>
      ) : (
        GROUPS.map(({ mode, title }) => {
          const list = activities.filter((a) => a.mode === mode);
          if (list.length === 0) return null;
          return (
            <div key={mode} className="stack" data-group={mode}>
              <h3>
                <RichText text={t(title)} />
              </h3>
              <ul className="school-grid bare-list">
                {list.map((a) => {
                  const go = target(role, a);
                  return (
                    <li
                      key={a.id}
                      className="card stack activity-card"
                      data-activity-id={a.id}
                      data-mode={a.mode}
                      data-live={a.live}
                    >
                      <h4>
                        <RichText text={a.title} />
                      </h4>
                      <p className="muted" data-testid="card-progress">
                        {a.scenes > 0 ? (
                          <>
                            <RichText
                              text={t("answeredOf", { answered: Math.min(a.answered, a.scenes), total: a.scenes })}
                            />
                            {" · "}
                          </>
                        ) : null}
                        <RichText text={ta(`mode${mode[0]!.toUpperCase()}${mode.slice(1)}` as "modeGuide")} />
                      </p>
                      {a.scenes > 0 ? (
                        <progress max={a.scenes} value={Math.min(a.answered, a.scenes)} aria-hidden="true" />
                      ) : null}
                      {go ? (
                        <Link
                          href={go.href}
                          className={go.label === "join" ? "button button-primary" : "button"}
                          data-testid={`go-${go.label}`}
                        >
                          <RichText text={t(go.label)} />
                        </Link>
                      ) : (
                        <p className="muted" data-testid="card-waiting">
                          <RichText
                            text={t(a.mode === "guide" && role === "student" ? "guideNotStarted" : "waitForTeacher")}
                          />
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })
      )}
    </section>
  );
}
