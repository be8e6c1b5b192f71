"use client";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { DRAWING_HEIGHT, DRAWING_WIDTH } from "@/features/scenes/shared/drawing-limits";
import { DrawingBackground, drawingBackgroundOf } from "@/features/scenes/ui/drawing-background";
import type { AnswerNow, GridStudent } from "@/features/play/server/grid-queries";
import { studentAnswerAction } from "@/features/play/server/actions";
import { StarButton } from "@/features/play/ui/star-button";
import { useConsoleParts } from "@/features/play/ui/console-parts";
import { SceneView } from "@/features/scenes/ui/scene-view";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import { PersonName } from "@/platform/ui/person-name";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

type Loaded = { kind: "loading" } | { kind: "failed" } | { kind: "done"; now: AnswerNow };

/**
 * The selected student's answer so far to the current scene, read when chosen and again when their
 * state changes (they answer, or change their answer while answered: the grid's state moves on).
 * A drawing comes outlined by the server: paths only, no drawing code in the console.
 */
export function GridAnswer({
  student,
  scene,
  activityId,
  schoolId,
  sessionId,
  onClose,
}: {
  student: GridStudent;
  scene: RenderedScene;
  activityId: string;
  schoolId?: string;
  /** The grid's session (several classes may run the activity at once). */
  sessionId: string;
  onClose: () => void;
}) {
  const t = useTranslations("LiveGrid");
  const [loaded, setLoaded] = useState<Loaded>({ kind: "loading" });
  const heading = useRef<HTMLHeadingElement>(null);
  const tool = useConsoleParts().answerTool;
  const reload = `${scene.id}:${student.state}`;
  useEffect(() => {
    let current = true;
    studentAnswerAction({ activityId, sessionId, studentId: student.id, ...(schoolId ? { schoolId } : {}) })
      .then((result) => current && setLoaded(result.ok ? { kind: "done", now: result.data } : { kind: "failed" }))
      .catch(() => current && setLoaded({ kind: "failed" }));
    return () => {
      current = false;
    };
  }, [activityId, schoolId, sessionId, student.id, reload]);
  useEffect(() => heading.current?.focus(), []);
  // Esc closes it, wherever the focus is (a dialog of its own, such as the end's confirmation, takes its Esc first)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector("dialog[open]")) onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  const name = student.name ? <PersonName name={student.name} /> : <RichTextClient text={t("unnamed")} />;
  const now = loaded.kind === "done" && loaded.now.sceneId === scene.id ? loaded.now : null;
  return (
    <section
      className="card stack grid-answer"
      aria-labelledby={`grid-answer-${student.id}`}
      data-testid="grid-answer"
      data-student-id={student.id}
      data-status={loaded.kind}
      aria-live="polite"
    >
      <div className="row wrap guide-bar">
        <h3 ref={heading} tabIndex={-1} id={`grid-answer-${student.id}`}>
          {name}
          <span className="visually-hidden"> </span>
          <span className="muted">
            <RichTextClient text={t(student.state)} />
          </span>
        </h3>
        <span className="top-bar-spacer" />
        <button type="button" className="button button-small" onClick={onClose} data-testid="grid-answer-close">
          <RichTextClient text={t("close")} />
        </button>
      </div>
      {now?.responseId ? (
        <div className="row wrap grid-answer-tools">
          <StarButton
            key={now.responseId}
            guideRef={{ activityId, sessionId, ...(schoolId ? { schoolId } : {}) }}
            responseId={now.responseId}
            starred={now.starred}
          />
          {tool?.({ activityId, schoolId, responseId: now.responseId })}
        </div>
      ) : null}
      <AnswerBody loaded={loaded} now={now} scene={scene} />
    </section>
  );
}

/** The answer read: loading, failed, the drawing outlined, the scene answered (read-only), or none yet. */
function AnswerBody({ loaded, now, scene }: { loaded: Loaded; now: AnswerNow | null; scene: RenderedScene }) {
  const t = useTranslations("LiveGrid");
  const plain = usePlainText();
  return loaded.kind === "loading" ? (
    <p className="muted" role="status">
      …
    </p>
  ) : loaded.kind === "failed" ? (
    <p className="alert alert-error" role="alert">
      <RichTextClient text={t("loadFailed")} />
    </p>
  ) : now?.drawing ? (
    <svg
      className="drawing-picture"
      viewBox={`0 0 ${DRAWING_WIDTH} ${DRAWING_HEIGHT}`}
      role="img"
      aria-label={plain(t("picture", { count: now.drawing.strokes }))}
      data-testid="drawing-svg"
      data-strokes={now.drawing.strokes}
    >
      <DrawingBackground src={drawingBackgroundOf(scene)} />
      {now.drawing.paths.map((p, i) => (
        <path key={i} d={p.d} fill={p.color} />
      ))}
    </svg>
  ) : now?.answer ? (
    <>
      {now.late ? (
        <p className="badge">
          <RichTextClient text={t("late")} />
        </p>
      ) : null}
      <SceneView scene={scene} answer={now.answer as SceneAnswer} onAnswer={() => undefined} readOnly />
    </>
  ) : (
    <p className="empty" data-testid="grid-no-answer">
      <RichTextClient text={t("noAnswer")} />
    </p>
  );
}
