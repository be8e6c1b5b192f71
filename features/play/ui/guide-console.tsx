"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { memo, useCallback, useDeferredValue, useMemo, useState } from "react";
import type { ReactNode } from "react";
import type { ActionResult } from "@/platform/errors";
import type { SessionClass } from "@/features/play/shared/schema";
import type { StaffLiveState } from "@/features/play/server/state-queries";
import {
  endSessionAction,
  setFlagsAction,
  setRevealedAction,
  setLockedAction,
  setPausedAction,
  setWordHiddenAction,
  startSessionAction,
} from "@/features/play/server/actions";
import { advanceScene } from "@/features/play/ui/advance-scene";
import { useLiveState } from "@/features/play/ui/use-live-state";
import { SceneView } from "@/features/scenes/ui/scene-view";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { ActionButton } from "@/platform/ui/action-button";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { starAnswerAction } from "@/features/play/server/projector-actions";
import { ProjectorControls as ProjectorControlsAll } from "@/features/play/ui/projector-controls";
import { useConsoleParts } from "@/features/play/ui/console-parts";
import { ClassPicker } from "./class-picker";
import { GameControls as GameControlsAll, type GameChoice, GameStartChoice } from "./game-parts";
import { SessionToggle } from "./session-toggle";
import { LiveGrid } from "./live-grid";
import { PacingControl } from "./pacing-control";
import { RunningSessions as RunningSessionsAll } from "./running-sessions";
import { ResultsView, uniqueSeconds } from "./results-view";
import { TimerControls as TimerControlsAll } from "./timer-controls";

// The console's parts re-render only when their own props change: a stream update that only moves the grid
// renders the grid (docs/benchmarks.md "The live controls' rows"). The live state keeps unchanged parts as the
// same objects (useLiveState), so these props stay equal between updates that do not concern them.
const GameControls = memo(GameControlsAll);
const ProjectorControls = memo(ProjectorControlsAll);
const RunningSessions = memo(RunningSessionsAll);
const TimerControls = memo(TimerControlsAll);

const ignoreAnswer = () => undefined;

type Run = ReturnType<typeof useActionRunner>["run"];
type Confirm = ReturnType<typeof useConfirm>["confirm"];
type GuideRef = { activityId: string; schoolId?: string; sessionId?: string };

interface GuideConsoleProps {
  activityId: string;
  /** The session chosen (`?session=`): several classes may run the activity at once; null: the only one running. */
  sessionId?: string | null;
  /** Managers name the school; teachers act on their own. */
  schoolId?: string;
  scenes: RenderedScene[];
  /** The correct options of each scene that has a key (「正解を見せる」 is offered on those only). */
  keys?: Record<string, string[]>;
  initialState: StaffLiveState;
  /** The school's classes: the session is run for one of them, or the whole school. */
  classes: SessionClass[];
  /** The class the picker starts at (its index in `classes`, as text; "": the whole school): the teacher's homeroom. */
  initialClass: string;
  /** Self mode's open scenes (null: all). */
  pacing?: number | null;
}

/**
 * The teacher's live screen: start, scene by scene (next, previous, jump),
 * the current scene as students see it, connected and answered counts live,
 * "show results" (anonymous unless names are switched on), lock, "eyes on me" (pause),
 * a countdown on the current scene, the projector page and its starred answers, end.
 */
export function GuideConsole({
  activityId,
  schoolId,
  sessionId = null,
  scenes,
  keys = {},
  initialState,
  classes,
  initialClass,
  pacing = null,
}: GuideConsoleProps) {
  const [klass, setKlass] = useState(initialClass);
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const { state } = useLiveState(`/api/v1/live/${activityId}`, initialState, liveQuery(schoolId, sessionId));
  // every control addresses the session shown: another class's running at the same time is never touched
  const runningId = state.status === "running" ? state.sessionId : null;
  const ref = useMemo(
    () => ({ activityId, ...(schoolId ? { schoolId } : {}), ...(runningId ? { sessionId: runningId } : {}) }),
    [activityId, schoolId, runningId],
  );
  const sessions = <RunningSessions sessions={state.sessions} current={runningId} />;
  const index = scenes.findIndex((s) => s.id === state.sceneId);
  const scene = index >= 0 ? scenes[index] : undefined;
  // the scene as students see it re-renders only when the scene changes, not with every count
  // the stream brings (so the grid's update renders within a frame: docs/benchmarks.md "The live controls' rows")
  const sceneView = useMemo(
    () => (scene ? <SceneView key={scene.id} scene={scene} answer={null} onAnswer={ignoreAnswer} readOnly /> : null),
    [scene],
  );

  // start for a class (or the whole school): on the idle screen, and beside a running session for another class
  const start = (
    <StartControls
      activityId={activityId}
      schoolId={schoolId}
      classes={classes}
      klass={klass}
      setKlass={setKlass}
      ended={state.status === "ended"}
      disabled={pending || scenes.length === 0}
      run={run}
    />
  );

  if (state.status !== "running" || !scene) {
    return (
      <div className="card stack" data-testid="guide-idle" data-status={state.status}>
        {sessions}
        <GuideIdle state={state} activityId={activityId} schoolId={schoolId} pacing={pacing} total={scenes.length} />
        {start}
      </div>
    );
  }
  return (
    <div
      className="stack guide"
      data-testid="guide-console"
      data-scene-id={scene.id}
      data-version={state.version}
      data-session-id={state.sessionId ?? ""}
    >
      {sessions}
      <GuideRunning
        state={state}
        start={start}
        scenes={scenes}
        index={index}
        scene={scene}
        sceneKey={keys[scene.id] ?? null}
        sceneView={sceneView}
        guideRef={ref}
        activityId={activityId}
        schoolId={schoolId}
        pending={pending}
        run={run}
        confirm={confirm}
      />
      {dialog}
    </div>
  );
}

/** The live state's query: the school (a manager's) and the session chosen. */
function liveQuery(schoolId: string | undefined, sessionId: string | null): string {
  const params = new URLSearchParams({
    ...(schoolId ? { school: schoolId } : {}),
    ...(sessionId ? { session: sessionId } : {}),
  }).toString();
  return params ? `?${params}` : "";
}

/** The class picker, the game mode's choice and the start button. */
const StartControls = memo(function StartControls({
  activityId,
  schoolId,
  classes,
  klass,
  setKlass,
  ended,
  disabled,
  run,
}: {
  activityId: string;
  schoolId?: string;
  classes: SessionClass[];
  klass: string;
  setKlass: (value: string) => void;
  ended: boolean;
  disabled: boolean;
  run: Run;
}) {
  const t = useTranslations("Play");
  const tg = useTranslations("LiveGrid");
  const router = useRouter();
  const [game, setGame] = useState<GameChoice>(null);
  return (
    <>
      <ClassPicker classes={classes} value={klass} onChange={setKlass} />
      <GameStartChoice value={game} onChange={setGame} />
      <ActionButton
        label={ended ? t("startAgain") : t("start")}
        testId="start-session"
        disabled={disabled}
        onClick={() =>
          run(
            () =>
              startSessionAction({
                activityId,
                ...(schoolId ? { schoolId } : {}),
                klass: klass === "" ? null : (classes[Number(klass)] ?? null),
                game,
              }),
            {
              failure: (code) => (code === "CONFLICT" ? tg("otherClassRunning") : t("startFailed")),
              // the screen follows the session just started (another class's may run beside it)
              onOk: ({ sessionId: started }) => router.replace(`?session=${started}`),
            },
          )
        }
      />
    </>
  );
});

/** No session running here (or its scene is gone): what to do next (the start follows). */
function GuideIdle({
  state,
  activityId,
  schoolId,
  pacing,
  total,
}: {
  state: StaffLiveState;
  activityId: string;
  schoolId?: string;
  pacing: number | null;
  total: number;
}) {
  const t = useTranslations("Play");
  const tg = useTranslations("LiveGrid");
  return (
    <>
      <p>
        <RichTextClient
          text={
            state.status === "ended"
              ? t("guideEnded")
              : state.sessions.length > 1
                ? tg("chooseSession")
                : state.mode === "guide"
                  ? t("guideReady")
                  : t("guideSwitches")
          }
        />
      </p>
      {state.mode === "self" ? (
        <PacingControl activityId={activityId} schoolId={schoolId} open={pacing} total={total} />
      ) : null}
    </>
  );
}

/** The running session's console (inside its frame, between the running sessions and the confirmation). */
function GuideRunning({
  state,
  start,
  scenes,
  index,
  scene,
  sceneKey,
  sceneView,
  guideRef,
  activityId,
  schoolId,
  pending,
  run,
  confirm,
}: {
  state: StaffLiveState;
  start: ReactNode;
  scenes: RenderedScene[];
  index: number;
  scene: RenderedScene;
  sceneKey: string[] | null;
  sceneView: ReactNode;
  guideRef: GuideRef;
  activityId: string;
  schoolId?: string;
  pending: boolean;
  run: Run;
  confirm: Confirm;
}) {
  const t = useTranslations("Play");
  const tg = useTranslations("LiveGrid");
  // the class's results render after the grid has taken its update (a render of its own, that yields to the next
  // event): 40 answers arriving at once move the grid within a frame, the charts follow
  const results = useDeferredValue(state.results);
  const go = (sceneId: string | undefined) =>
    sceneId && run(() => advanceScene(activityId, sceneMove(guideRef, sceneId)), { failure: t("guideFailed") });
  return (
    <>
      <details className="card" data-testid="start-other">
        <summary>
          <RichTextClient text={tg("startOther")} />
        </summary>
        <div className="stack">{start}</div>
      </details>
      <SceneBar state={state} scenes={scenes} index={index} scene={scene} go={go} pending={pending} />
      <RunningControls
        state={state}
        keyed={!!sceneKey}
        guideRef={guideRef}
        pending={pending}
        run={run}
        confirm={confirm}
      />
      <SceneProgress state={state} index={index} total={scenes.length} />
      {sceneView}
      <LiveGrid
        grid={state.grid}
        scene={scene}
        activityId={activityId}
        schoolId={schoolId}
        side={
          <GuideResults
            results={results?.sceneId === scene.id ? results : null}
            showResults={state.showResults}
            revealed={state.revealed}
            classKey={state.classKey}
            scene={scene}
            sceneKey={sceneKey}
            guideRef={guideRef}
            run={run}
          />
        }
      />
    </>
  );
}

/** The move to a scene, for the session shown (and the manager's school). */
function sceneMove({ schoolId, sessionId }: GuideRef, sceneId: string) {
  return { ...(schoolId ? { schoolId } : {}), ...(sessionId ? { sessionId } : {}), sceneId };
}

/** The session's toggles, the game's, the projector's and the timer's controls. */
function RunningControls({
  state,
  keyed,
  guideRef,
  pending,
  run,
  confirm,
}: {
  state: StaffLiveState;
  keyed: boolean;
  guideRef: GuideRef;
  pending: boolean;
  run: Run;
  confirm: Confirm;
}) {
  const failed = useTranslations("Play")("guideFailed");
  const runTimer = useCallback((action: Parameters<Run>[0]) => run(action, { failure: failed }), [run, failed]);
  const { showResults, showNames, revealed, locked, paused } = state;
  const flags = useMemo(
    () => ({ showResults, showNames, revealed, locked, paused }),
    [showResults, showNames, revealed, locked, paused],
  );
  return (
    <>
      <SessionToggles flags={flags} keyed={keyed} guideRef={guideRef} pending={pending} run={run} confirm={confirm} />
      <GameControls game={state.game} guideRef={guideRef} pending={pending} run={run} confirm={confirm} />
      <ProjectorControls guideRef={guideRef} starredOnly={state.starredOnly} pending={pending} run={run} />
      <TimerControls timer={state.timer} guideRef={guideRef} pending={pending} run={runTimer} />
    </>
  );
}

/**
 * The class's results on the teacher's own console, live as answers arrive, whether or not the projector shows them:
 * the charts, the texts (starrable), a two-step scene's cross-table; the correct options marked once the answer or
 * the results are shown.
 */
const GuideResults = memo(function GuideResults({
  results,
  showResults,
  revealed,
  classKey,
  scene,
  sceneKey,
  guideRef,
  run,
}: {
  /** the current scene's results (null until they arrive) */
  results: StaffLiveState["results"];
  showResults: boolean;
  revealed: boolean;
  classKey: StaffLiveState["classKey"];
  scene: RenderedScene;
  sceneKey: string[] | null;
  guideRef: GuideRef;
  run: Run;
}) {
  const t = useTranslations("Play");
  const { crossTable } = useConsoleParts();
  return (
    <div className="stack console-results" data-testid="console-results" data-shown={showResults}>
      {!showResults ? (
        <p className="muted" data-testid="console-results-private">
          <RichTextClient text={t("resultsPrivate")} />
        </p>
      ) : null}
      {!results ? (
        <p className="muted" role="status" data-testid="console-results-loading">
          …
        </p>
      ) : (
        <ResultsView
          scene={(revealed || showResults) && sceneKey ? markCorrect(scene, sceneKey) : scene}
          results={results}
          onStar={(responseId, starred) =>
            run(() => starAnswerAction({ ...guideRef, responseId, starred }), { failure: t("guideFailed") })
          }
          onHideWord={(key, hidden) =>
            run(() => setWordHiddenAction({ ...guideRef, key, hidden }), { failure: t("guideFailed") })
          }
          empty={
            <p className="empty" data-testid="console-results-empty">
              <RichTextClient text={t("noAnswersYet")} />
            </p>
          }
        >
          {scene.type === "two_step" && crossTable && results.total > 0
            ? crossTable({
                activityId: guideRef.activityId,
                ...(guideRef.schoolId ? { schoolId: guideRef.schoolId } : {}),
                sceneId: scene.id,
                classKey,
                firsts: scene.firstOptions,
                seconds: uniqueSeconds(scene),
                cross: results.cross,
              })
            : null}
        </ResultsView>
      )}
    </div>
  );
});

/** Previous, jump, next; the class the session runs for and the live counts. */
function SceneBar({
  state,
  scenes,
  index,
  scene,
  go,
  pending,
}: {
  state: StaffLiveState;
  scenes: RenderedScene[];
  index: number;
  scene: RenderedScene;
  go: (sceneId: string | undefined) => void;
  pending: boolean;
}) {
  const t = useTranslations("Play");
  const tg = useTranslations("LiveGrid");
  const plain = usePlainText();
  return (
    <div className="row wrap guide-bar">
      <ActionButton
        label={t("previousScene")}
        testId="guide-previous"
        disabled={pending || index === 0}
        onClick={() => go(scenes[index - 1]?.id)}
      />
      <label className="field field-inline">
        <span className="visually-hidden">{plain(t("jumpTo"))}</span>
        <select
          className="mode-select"
          value={scene.id}
          onChange={(e) => go(e.target.value)}
          disabled={pending}
          data-testid="guide-jump"
        >
          {scenes.map((s, i) => (
            <option key={s.id} value={s.id}>
              {plain(t("sceneOf", { number: i + 1, total: scenes.length }))}
            </option>
          ))}
        </select>
      </label>
      <ActionButton
        label={t("nextScene")}
        testId="guide-next"
        disabled={pending || index === scenes.length - 1}
        onClick={() => go(scenes[index + 1]?.id)}
      />
      <span className="top-bar-spacer" />
      <p className="muted" data-testid="session-class" data-class={state.classKey ?? ""}>
        <RichTextClient text={state.grid?.klass ? tg("runningFor", state.grid.klass) : tg("runningWhole")} />
      </p>
      <p
        className="live-counts"
        aria-live="polite"
        data-testid="live-counts"
        data-connected={state.connected}
        data-answered={state.answered}
      >
        <RichTextClient text={t("counts", { connected: state.connected, answered: state.answered })} />
      </p>
    </div>
  );
}

/** Results, names, the answer (a scene with a key only), lock, pause (on/off), and the end of the session (confirmed). */
const SessionToggles = memo(function SessionToggles({
  flags: state,
  keyed,
  guideRef,
  pending,
  run,
  confirm,
}: {
  flags: Pick<StaffLiveState, "showResults" | "showNames" | "revealed" | "locked" | "paused">;
  keyed: boolean;
  guideRef: GuideRef;
  pending: boolean;
  run: Run;
  confirm: Confirm;
}) {
  const t = useTranslations("Play");
  const failed = t("guideFailed");
  /** An on/off control (aria-pressed) running a session action. */
  const toggle = (
    testId: string,
    on: boolean,
    offLabel: string,
    onLabel: string,
    action: () => Promise<ActionResult<null>>,
  ) => (
    <SessionToggle
      testId={testId}
      on={on}
      label={on ? offLabel : onLabel}
      pending={pending}
      onClick={() => run(action, { failure: failed })}
    />
  );
  return (
    <div className="row wrap guide-bar">
      {toggle("toggle-results", state.showResults, t("hideResults"), t("showResults"), () =>
        setFlagsAction({ ...guideRef, showResults: !state.showResults }),
      )}
      {toggle("toggle-names", state.showNames, t("hideNames"), t("showNames"), () =>
        setFlagsAction({ ...guideRef, showNames: !state.showNames }),
      )}
      {keyed
        ? toggle("toggle-reveal", state.revealed, t("hideAnswer"), t("revealAnswer"), () =>
            setRevealedAction({ ...guideRef, revealed: !state.revealed }),
          )
        : null}
      {toggle("toggle-lock", state.locked, t("unlock"), t("lock"), () =>
        setLockedAction({ ...guideRef, locked: !state.locked }),
      )}
      {toggle("toggle-pause", state.paused, t("resume"), t("pause"), () =>
        setPausedAction({ ...guideRef, paused: !state.paused }),
      )}
      <span className="top-bar-spacer" />
      <ActionButton
        label={t("endSession")}
        testId="end-session"
        danger
        disabled={pending}
        onClick={async () => {
          if (
            await confirm({ title: t("endSession"), body: t("endConfirm"), confirm: t("endSession"), danger: true })
          ) {
            run(() => endSessionAction(guideRef), { failure: failed });
          }
        }}
      />
    </div>
  );
});

/** "Scene n of m", with the locked and paused badges. */
function SceneProgress({ state, index, total }: { state: StaffLiveState; index: number; total: number }) {
  const t = useTranslations("Play");
  return (
    <p className="progress">
      <RichTextClient text={t("sceneOf", { number: index + 1, total })} />
      {state.locked ? (
        <>
          {" · "}
          <RichTextClient text={t("lockedBadge")} />
        </>
      ) : null}
      {state.paused ? (
        <>
          {" · "}
          <strong data-testid="paused-badge">
            <RichTextClient text={t("pausedBadge")} />
          </strong>
        </>
      ) : null}
    </p>
  );
}
