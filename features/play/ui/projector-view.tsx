"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { DRAWING_HEIGHT, DRAWING_WIDTH } from "@/features/scenes/shared/drawing-limits";
import type { ProjectorResults, ProjectorState } from "@/features/play/server/projector-queries";
import { useLiveState } from "@/features/play/ui/use-live-state";
import { useFitToScreen } from "@/features/play/ui/use-fit-to-screen";
import { Countdown, useCountdown } from "@/features/play/ui/countdown";
import { ResultsView } from "@/features/play/ui/results-view";
import { DrawingBackground, drawingBackgroundOf } from "@/features/scenes/ui/drawing-background";
import { GameBoardPanel } from "@/features/play/ui/game-parts";
import { SceneView } from "@/features/scenes/ui/scene-view";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** "This lesson is over": the page of a link that opens nothing any more. */
export function ProjectorEnded({ heading = false }: { heading?: boolean }) {
  const t = useTranslations("Projector");
  const title = <RichTextClient text={t("ended")} />;
  return (
    <div className="card stack projector-ended" role="status" data-testid="projector-ended">
      {heading ? <h1>{title}</h1> : <p className="projector-ended-title">{title}</p>}
      <p className="muted">
        <RichTextClient text={t("endedNote")} />
      </p>
    </div>
  );
}

/**
 * The live part of the projector page: follows the session's stream (polling when it cannot be held),
 * reloads the page's scene when the teacher moves on, shows the timer, the pause, and the answers
 * when shown — anonymous unless the teacher's "show names" is on, only the starred when chosen; in a game, the
 * leaderboard or the podium in the scene's place while the teacher shows it.
 */
export function ProjectorView({
  token,
  initialState,
  scene,
}: {
  token: string;
  initialState: ProjectorState;
  scene: RenderedScene | null;
}) {
  const t = useTranslations("Projector");
  const tp = useTranslations("Play");
  const router = useRouter();
  const { state } = useLiveState(`/api/v1/projector/${encodeURIComponent(token)}`, initialState);
  const running = state.status === "running" ? state : null;
  const countdown = useCountdown(running?.timer ?? null);
  const stale = running !== null && running.sceneId !== (scene?.id ?? null);
  useEffect(() => {
    if (stale) router.refresh();
  }, [stale, router, running?.sceneId]);
  const stage = useRef<HTMLDivElement>(null);
  useFitToScreen(stage, fitKey(running, scene?.id));
  if (!running) return <ProjectorEnded />;
  const results = running.results;
  // once the teacher shows the answer, the scene and the chart mark the correct options
  const shown = scene && running.correct ? markCorrect(scene, running.correct) : scene;
  const withResults = Boolean(shown && !stale && running.showResults && results);
  return (
    <div
      ref={stage}
      className="projector-live"
      data-testid="projector-live"
      data-scene-id={scene?.id ?? ""}
      data-version={running.version}
      data-revealed={running.correct ? "true" : "false"}
    >
      {running.timer && countdown.left !== null ? (
        <Countdown timer={running.timer} left={countdown.left} over={countdown.over} />
      ) : null}
      {running.paused ? (
        <p className="card paused-title" role="status" data-testid="projector-paused">
          <RichTextClient text={tp("pausedTitle")} />
        </p>
      ) : null}
      {running.game ? (
        <GameBoardPanel board={running.game} />
      ) : (
        <div className={withResults ? "projector-panels projector-split" : "projector-panels"}>
          {shown && !stale ? (
            <div className="projector-panel">
              <SceneView key={shown.id} scene={shown} answer={null} onAnswer={() => undefined} readOnly projected />
            </div>
          ) : null}
          {shown && withResults && results ? (
            <div
              className="stack projector-panel"
              data-testid="projector-results"
              data-starred-only={running.starredOnly}
              data-names={running.showNames}
            >
              <ResultsView scene={shown} results={{ ...results, texts: results.answers }} />
              {results.drawings.length > 0 ? (
                <DrawingGallery drawings={results.drawings} background={drawingBackgroundOf(shown)} />
              ) : null}
              {running.starredOnly && results.answers.length === 0 && results.drawings.length === 0 ? (
                <p className="empty">
                  <RichTextClient text={t("noStarred")} />
                </p>
              ) : null}
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}

/** What the screen's type is fitted to: the scene, the panels shown, and the answers in them. */
function fitKey(running: Extract<ProjectorState, { status: "running" }> | null, sceneId: string | undefined) {
  if (!running) return "";
  const r = running.showResults ? running.results : null;
  const written = r?.answers.reduce((n, a) => n + a.text.length, 0);
  const game = running.game && [running.game.view, running.game.top.length, running.game.teams?.length];
  return [sceneId, running.paused, Boolean(running.timer), r?.total, written, r?.drawings.length, game].join();
}

/** A drawing scene's pictures, as SVG paths outlined on the server; anonymous unless names are on. */
function DrawingGallery({ drawings, background }: { drawings: ProjectorResults["drawings"]; background?: string }) {
  const t = useTranslations("Projector");
  const plain = usePlainText();
  return (
    <section className="card stack" aria-label={plain(t("drawings"))}>
      <ul className="bare-list result-texts" data-testid="projector-drawings">
        {drawings.map((d, i) => (
          <li key={i} className="card" data-testid="projector-drawing" data-starred={d.starred}>
            <svg
              className="drawing-picture"
              viewBox={`0 0 ${DRAWING_WIDTH} ${DRAWING_HEIGHT}`}
              role="img"
              aria-label={plain(t("picture", { count: d.strokes }))}
            >
              <DrawingBackground src={background} />
              {d.paths.map((p, j) => (
                <path key={j} d={p.d} fill={p.color} />
              ))}
            </svg>
            {d.name ? (
              <p className="muted" data-testid="result-name">
                {d.name}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
