"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { LiveState } from "@/features/play/server/state-queries";
import { type StoredAnswer, useAnswerSaver } from "@/features/play/ui/use-answer-saver";
import { useLiveState } from "@/features/play/ui/use-live-state";
import { SceneView, sceneProblem, whenToSave } from "@/features/scenes/ui/scene-view";
import { RevisedNote } from "./revised-note";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import { Countdown, useCountdown } from "./countdown";
import { LiveVerdict, useLiveFeedback } from "./live-feedback";
import { GameStandingCard } from "./game-parts";
import { PlayHead } from "./save-status";

/**
 * A student in a live session: the scene the teacher is on (within a moment
 * of the teacher's click), answerable until the teacher moves on or locks it;
 * a standby screen before the start and between sessions. Reconnecting lands
 * on the current scene with the saved answers. While the teacher has paused the
 * class ("eyes on me") the scene is hidden, not unmounted: what was typed stays. Once the teacher shows the
 * answer (「正解を見せる」) the scene is read-only, with the student's own ○/× and the correct options marked.
 */
export function LiveSession({
  userId,
  activityId,
  scenes,
  initialState,
  initial,
}: {
  userId: string;
  activityId: string;
  scenes: RenderedScene[];
  initialState: LiveState;
  initial: Record<string, StoredAnswer>;
}) {
  const t = useTranslations("Play");
  const { state, transport } = useLiveState(`/api/v1/live/${activityId}`, initialState);
  const saver = useAnswerSaver({ userId, activityId, mode: "guide", initial });
  const index = scenes.findIndex((s) => s.id === state.sceneId);
  const scene = index >= 0 ? scenes[index] : undefined;
  const shown = useRef<string | null>(null);
  const { flush } = saver;
  const answer = scene ? (saver.answers[scene.id] ?? null) : null;
  const { problem, send } = useSend(scene, answer, flush);
  const countdown = useCountdown(state.timer);
  const feedback = useLiveFeedback(activityId, scene?.id ?? null, state.revealed, saver.status);
  // at zero of a countdown that closes answers: read-only, and what was typed goes at once (kept, late if it arrives late)
  const closed = state.locked || state.revealed || (countdown.over && Boolean(state.timer?.locks));

  // the teacher moved on: what was typed on the previous scene is sent at once
  useEffect(() => {
    if (shown.current && shown.current !== state.sceneId) flush(shown.current);
    shown.current = state.sceneId;
  }, [state.sceneId, flush]);

  useEffect(() => {
    if (closed && shown.current) flush(shown.current);
  }, [closed, flush]);

  return (
    <div
      className="stack live"
      data-testid="live-session"
      data-status={state.status}
      data-scene-id={state.sceneId ?? ""}
      data-transport={transport}
    >
      {state.status !== "running" || !scene ? (
        <Standby ended={state.status === "ended"} />
      ) : (
        <>
          {state.paused ? <PausedCard /> : null}
          <div className="stack" hidden={state.paused}>
            <PlayHead
              progress={t("sceneOf", { number: index + 1, total: scenes.length })}
              status={saver.status}
              sceneId={scene.id}
            />
            {state.timer && countdown.left !== null ? (
              <Countdown timer={state.timer} left={countdown.left} over={countdown.over} />
            ) : null}
            {state.locked ? (
              <p className="alert alert-info" role="status" data-testid="locked">
                <span>
                  <RichTextClient text={t("lockedNote")} />
                </span>
              </p>
            ) : null}
            <RevisedNote show={initial[scene.id]?.answer === null && !saver.answers[scene.id]} />
            {feedback ? <LiveVerdict feedback={feedback} /> : null}
            <GameStandingCard game={state.game} standing={state.standing} />
            <SceneView
              key={scene.id}
              scene={feedback ? markCorrect(scene, feedback.correct) : scene}
              answer={answer}
              problem={problem}
              readOnly={closed}
              onAnswer={(a) => saver.change(scene.id, a, whenToSave(scene, a))}
            />
            {scene.type === "two_step" && !closed ? <SendButton onSend={send} /> : null}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * A two-step answer is not sent until it is complete (the same rule as solo; the server refuses it too): what it
 * lacks is said once the student tries to send it, not while they are still writing.
 */
function useSend(scene: RenderedScene | undefined, answer: SceneAnswer | null, flush: (sceneId: string) => void) {
  const [tried, setTried] = useState<string | null>(null);
  const problem = scene && tried === scene.id ? sceneProblem(scene, answer) : null;
  const send = () => {
    if (!scene) return;
    setTried(scene.id);
    if (!sceneProblem(scene, answer)) flush(scene.id);
  };
  return { problem, send };
}

/** Sends a two-step answer now; one that is not complete stays here and the scene says what it lacks. */
function SendButton({ onSend }: { onSend: () => void }) {
  const t = useTranslations("Play");
  return (
    <p className="row">
      <button type="button" className="button button-primary" onClick={onSend} data-testid="send-answer">
        <RichTextClient text={t("sendAnswer")} />
      </button>
    </p>
  );
}

/** Before the start, between sessions, and after the end (with the way home). */
function Standby({ ended }: { ended: boolean }) {
  const t = useTranslations("Play");
  return (
    <div className="card stack standby" data-testid="standby">
      {ended ? null : <span className="spinner spinner-large" aria-hidden="true" />}
      <p>
        <RichTextClient text={ended ? t("sessionEnded") : t("waitingForStart")} />
      </p>
      {ended ? (
        <Link href="/dashboard/student/home" className="button">
          <RichTextClient text={t("backHome")} />
        </Link>
      ) : null}
    </div>
  );
}

/** "Eyes on me": shown while the teacher has paused the class. */
function PausedCard() {
  const t = useTranslations("Play");
  return (
    <div className="card stack standby paused" role="status" data-testid="paused">
      <p className="paused-title">
        <RichTextClient text={t("pausedTitle")} />
      </p>
      <p className="muted">
        <RichTextClient text={t("pausedNote")} />
      </p>
    </div>
  );
}
