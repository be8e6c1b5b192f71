"use client";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { RunningSession } from "@/features/play/server/state-queries";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/**
 * The activity's running sessions when several classes run it at once (docs/adr/0061-several-classes-at-once.md):
 * which class, who started it, and a link to control it (`?session=`); the one shown is
 * marked. Hidden for one session that is the one shown.
 */
export function RunningSessions({ sessions, current }: { sessions: RunningSession[]; current: string | null }) {
  const t = useTranslations("LiveGrid");
  if (sessions.length === 0 || (sessions.length === 1 && sessions[0]!.id === current)) return null;
  return (
    <nav className="card stack" aria-labelledby="running-sessions-heading" data-testid="running-sessions">
      <h2 id="running-sessions-heading">
        <RichTextClient text={t("runningSessions")} />
      </h2>
      <ul className="stack">
        {sessions.map((s) => (
          <li
            key={s.id}
            className="row wrap"
            data-testid="running-session"
            data-session-id={s.id}
            data-class={s.klass ? `${s.klass.grade}:${s.klass.className}` : ""}
          >
            <strong>
              <RichTextClient text={s.klass ? t("runningFor", s.klass) : t("runningWhole")} />
            </strong>
            {s.startedBy ? (
              <span className="muted">
                <RichTextClient text={t("startedBy", { name: s.startedBy })} />
              </span>
            ) : null}
            {s.id === current ? (
              <span aria-current="true" data-testid="running-session-current">
                <RichTextClient text={t("controlling")} />
              </span>
            ) : (
              <Link className="button button-small" href={`?session=${s.id}`} data-testid="running-session-control">
                <RichTextClient text={t("controlThis")} />
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
