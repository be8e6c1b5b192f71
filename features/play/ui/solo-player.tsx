"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { type StoredAnswer, useAnswerSaver } from "@/features/play/ui/use-answer-saver";
import { SceneView, type SceneProblem, sceneProblem, whenToSave } from "@/features/scenes/ui/scene-view";
import { RevisedNote } from "./revised-note";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { PlayHead, SaveStatusLine } from "./save-status";

interface SoloPlayerProps {
  userId: string;
  activityId: string;
  scenes: RenderedScene[];
  initial: Record<string, StoredAnswer>;
  startAt: number;
  /** false: a teacher trying out a student activity (nothing is written). */
  writes: boolean;
  doneHref: string;
  responseHref: string | null;
  /** "After each answer" feedback: the result page, open from the first answer on. */
  checkHref?: string | null;
  /** Pacing: the teacher has not opened the scenes after these yet (the page re-renders with them when they do). */
  waitingForMore?: boolean;
  /** Scenes whose verdict or key the respondent has seen: their stored answer is final, shown read-only. */
  finalScenes?: string[];
}

type OpenWhenSent = (href: string, sceneId?: string) => (e: React.MouseEvent) => void;

/**
 * A solo activity at the respondent's pace: scene by scene in their group's
 * order, back and forward, a progress indicator, answers saved as they go
 * (queued on the device when offline), and a finish screen.
 */
export function SoloPlayer({
  userId,
  activityId,
  scenes,
  initial,
  startAt,
  writes,
  doneHref,
  responseHref,
  checkHref = null,
  waitingForMore = false,
  finalScenes = [],
}: SoloPlayerProps) {
  const ts = useTranslations("Scenes");
  const saver = useAnswerSaver({ userId, activityId, mode: "self", initial, writes });
  const { index, setIndex, scene, problem, setProblem, answerOf, leave } = useSceneSteps(scenes, startAt, saver);
  const final = useFinalScenes(finalScenes, saver.status);
  const openWhenSent = useOpenWhenSent(saver);

  if (!scene && waitingForMore) {
    return (
      <div className="stack card" data-testid="solo-wait" aria-live="polite">
        <SoloWaitBody status={saver.status} disabled={scenes.length === 0} onBack={() => setIndex(scenes.length - 1)} />
      </div>
    );
  }
  if (!scene) {
    return (
      <div className="stack card" data-testid="solo-done">
        <SoloDoneBody
          status={saver.status}
          writes={writes}
          onBack={() => setIndex(scenes.length - 1)}
          responseHref={responseHref}
          doneHref={doneHref}
          openWhenSent={openWhenSent}
        />
      </div>
    );
  }
  return (
    <div className="stack">
      <PlayHead
        progress={ts("progress", { current: index + 1, total: scenes.length })}
        status={saver.status}
        sceneId={scene.id}
      />
      <progress max={scenes.length} value={index + 1} aria-hidden="true" />
      <RevisedNote show={initial[scene.id]?.answer === null && !saver.answers[scene.id]} />
      {final.has(scene.id) ? <FinalNote /> : null}
      <SceneView
        key={scene.id}
        scene={scene}
        readOnly={final.has(scene.id)}
        answer={final.has(scene.id) ? (initial[scene.id]?.answer ?? null) : answerOf(scene)}
        problem={problem}
        onAnswer={(a) => {
          saver.change(scene.id, a, whenToSave(scene, a));
          setProblem(null);
        }}
      />
      <SceneNav index={index} total={scenes.length} waitingForMore={waitingForMore} leave={leave} />
      {checkHref && Object.keys(saver.answers).length > 0 ? (
        <CheckAnswersLink href={checkHref} onClick={openWhenSent(checkHref, scene.id)} />
      ) : null}
    </div>
  );
}

/** Waiting for the teacher to open more scenes: the save status and the way back. */
function SoloWaitBody({ status, disabled, onBack }: { status: SaveStatus; disabled: boolean; onBack: () => void }) {
  const t = useTranslations("Play");
  const ts = useTranslations("Scenes");
  return (
    <>
      <p>
        <RichTextClient text={t("waitForTeacher")} />
      </p>
      <SaveStatusLine status={status} />
      <div className="row">
        <button type="button" className="button" disabled={disabled} onClick={onBack} data-testid="back-to-last">
          <RichTextClient text={ts("previous")} />
        </button>
      </div>
    </>
  );
}

/** The finish screen's content: the save status, back to the last scene, the answers, home. */
function SoloDoneBody({
  status,
  writes,
  onBack,
  responseHref,
  doneHref,
  openWhenSent,
}: {
  status: SaveStatus;
  writes: boolean;
  onBack: () => void;
  responseHref: string | null;
  doneHref: string;
  openWhenSent: OpenWhenSent;
}) {
  const t = useTranslations("Play");
  const ts = useTranslations("Scenes");
  return (
    <>
      <h2>
        <RichTextClient text={t("finished")} />
      </h2>
      <SaveStatusLine status={status} />
      {!writes ? (
        <p className="muted">
          <RichTextClient text={t("tryOutNote")} />
        </p>
      ) : null}
      <div className="row">
        <button type="button" className="button" onClick={onBack} data-testid="back-to-last">
          <RichTextClient text={ts("previous")} />
        </button>
        {responseHref ? (
          <Link
            href={responseHref}
            className="button"
            prefetch={false}
            data-testid="see-answers"
            onClick={openWhenSent(responseHref)}
          >
            <RichTextClient text={t("seeAnswers")} />
          </Link>
        ) : null}
        <Link href={doneHref} className="button button-primary" data-testid="back-home">
          <RichTextClient text={t("backHome")} />
        </Link>
      </div>
    </>
  );
}

/** The note above a scene whose answer is final. */
function FinalNote() {
  const t = useTranslations("Play");
  return (
    <p className="alert alert-info" role="status" data-testid="answer-final">
      <span>
        <RichTextClient text={t("finalNote")} />
      </span>
    </p>
  );
}

/** Previous and next (or finish) below the scene. */
function SceneNav({
  index,
  total,
  waitingForMore,
  leave,
}: {
  index: number;
  total: number;
  waitingForMore: boolean;
  leave: (to: number) => void;
}) {
  const ts = useTranslations("Scenes");
  return (
    <div className="row scene-nav">
      <button
        type="button"
        className="button"
        disabled={index === 0}
        onClick={() => leave(index - 1)}
        data-testid="previous"
      >
        <RichTextClient text={ts("previous")} />
      </button>
      <button type="button" className="button button-primary" onClick={() => leave(index + 1)} data-testid="next">
        <RichTextClient text={index + 1 < total || waitingForMore ? ts("next") : ts("finish")} />
      </button>
    </div>
  );
}

/** The "check my answers" link (the answer given is stored before the result page opens). */
function CheckAnswersLink({ href, onClick }: { href: string; onClick: (e: React.MouseEvent) => void }) {
  const t = useTranslations("Play");
  return (
    <p>
      <Link href={href} className="button" prefetch={false} data-testid="check-answers" onClick={onClick}>
        <RichTextClient text={t("checkAnswers")} />
      </Link>
    </p>
  );
}

type SaveStatus = ReturnType<typeof useAnswerSaver>["status"];

/**
 * The scenes shown read-only: those the server says are final, and one whose save it just refused
 * as final (answerFinal), whose stored answer the page then reads again from the server.
 */
function useFinalScenes(fromServer: string[], status: ReturnType<typeof useAnswerSaver>["status"]): Set<string> {
  const router = useRouter();
  const refused = status.kind === "failed" && status.reason === "answerFinal" ? status.sceneId : undefined;
  useEffect(() => {
    if (refused) router.refresh();
  }, [refused, router]);
  return new Set(refused ? [...fromServer, refused] : fromServer);
}

/** The scene shown, the problem that keeps the respondent on it, and the move to another scene. */
function useSceneSteps(scenes: RenderedScene[], startAt: number, saver: ReturnType<typeof useAnswerSaver>) {
  const [index, setIndex] = useState(Math.min(startAt, scenes.length));
  const [problem, setProblem] = useState<SceneProblem | null>(null);
  const scene = scenes[index];
  const answerOf = (s: RenderedScene): SceneAnswer | null => saver.answers[s.id] ?? null;
  const leave = (to: number) => {
    if (!scene) return;
    if (to > index) {
      const p = sceneProblem(scene, answerOf(scene));
      setProblem(p);
      if (p) return;
      // an info scene counts as answered once seen
      if (scene.type === "info" && !saver.answers[scene.id]) saver.change(scene.id, { seen: true }, "now");
    } else setProblem(null);
    saver.flush(scene.id);
    setIndex(to);
    window.scrollTo({ top: 0 });
  };
  return { index, setIndex, scene, problem, setProblem, answerOf, leave };
}

/**
 * The result page (not prefetched): it shows the key, which makes the stored answers final, so what was
 * just given is stored first.
 */
function useOpenWhenSent(saver: ReturnType<typeof useAnswerSaver>): OpenWhenSent {
  const router = useRouter();
  return (href: string, sceneId?: string) => (e: React.MouseEvent) => {
    e.preventDefault();
    if (sceneId) saver.flush(sceneId);
    void whenSent(saver.hasUnsent).then(() => router.push(href));
  };
}

/** Resolves once nothing is left to send, or after `maxMs` (offline: the key is shown all the same). */
async function whenSent(hasUnsent: () => boolean, maxMs = 5_000): Promise<void> {
  for (const start = Date.now(); hasUnsent() && Date.now() - start < maxMs;)
    await new Promise((r) => setTimeout(r, 100));
}
