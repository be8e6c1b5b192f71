"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { setFlagsAction } from "@/features/play/server/actions";
import { openProjectorAction, revokeProjectorAction } from "@/features/play/server/projector-actions";
import { MAX_PROJECTOR_LINKS } from "@/features/play/shared/projector-schema";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useNotify } from "@/platform/ui/notifications";
import type { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";

/**
 * The guide screen's projector controls: open a read-only projector page for the running session
 * (a new window, and the link to copy for the classroom PC), stop every such link, and show only
 * the starred answers there.
 */
export function ProjectorControls({
  guideRef,
  starredOnly,
  pending,
  run,
}: {
  guideRef: { activityId: string; schoolId?: string };
  starredOnly: boolean;
  pending: boolean;
  run: ReturnType<typeof useActionRunner>["run"];
}) {
  const t = useTranslations("Projector");
  const plain = usePlainText();
  const [link, setLink] = useState<string | null>(null);
  const failure = plain(t("openFailed"));
  const open = () => {
    // opened now, in the click, so that no pop-up blocker stops it; it goes to the link once made
    const win = window.open("", "_blank");
    run(() => openProjectorAction(guideRef), {
      failure: (code) => {
        win?.close(); // the blank window would stay behind
        return code === "RATE_LIMITED" ? plain(t("tooManyLinks", { max: MAX_PROJECTOR_LINKS })) : failure;
      },
      onOk: ({ path }) => {
        const url = `${window.location.origin}${path}`;
        setLink(url);
        if (win) {
          win.opener = null;
          win.location.href = url;
        }
      },
    });
  };
  return (
    <div className="row wrap guide-bar projector-controls" data-testid="projector-controls">
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        onClick={open}
        data-testid="projector-open"
      >
        <RichTextClient text={t("open")} />
      </button>
      <button
        type="button"
        className="button button-small"
        aria-pressed={starredOnly}
        disabled={pending}
        data-testid="projector-starred-only"
        onClick={() => run(() => setFlagsAction({ ...guideRef, starredOnly: !starredOnly }), { failure })}
      >
        <RichTextClient text={starredOnly ? t("allAnswers") : t("starredOnly")} />
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="projector-revoke"
        onClick={() =>
          run(() => revokeProjectorAction(guideRef), {
            failure,
            success: plain(t("revoked")),
            onOk: () => setLink(null),
          })
        }
      >
        <RichTextClient text={t("revoke")} />
      </button>
      {link ? <ProjectorLink link={link} /> : null}
    </div>
  );
}

/** The projector link made last, to copy for the classroom PC. */
function ProjectorLink({ link }: { link: string }) {
  const t = useTranslations("Projector");
  const plain = usePlainText();
  const notify = useNotify();
  const copy = async () => {
    if (!link) return;
    await navigator.clipboard?.writeText(link).catch(() => undefined);
    notify({ message: plain(t("copied")), kind: "success" });
  };
  return (
    <label className="field projector-link">
      <span className="muted">
        <RichTextClient text={t("linkLabel")} />
      </span>
      <span className="row">
        <input
          readOnly
          value={link}
          className="input"
          data-testid="projector-link"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button button-small" onClick={() => void copy()} data-testid="projector-copy">
          <RichTextClient text={t("copy")} />
        </button>
      </span>
    </label>
  );
}
