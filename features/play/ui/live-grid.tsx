"use client";
import { useTranslations } from "next-intl";
import { memo, type ReactNode, type RefObject, useCallback, useLayoutEffect, useRef, useState } from "react";
import type { GridStudent, LiveGrid as LiveGridData } from "@/features/play/server/grid-queries";
import { gridCounts } from "@/features/play/shared/grid-state";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { PersonName } from "@/platform/ui/person-name";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { GridAnswer } from "./grid-answer";
import "./live-grid.css";

/** One student's cell: a button (Tab, Enter or Space) that shows their answer. Re-rendered only when its student changes. */
const GridCell = memo(function GridCell({
  student,
  selected,
  onSelect,
}: {
  student: GridStudent;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const t = useTranslations("LiveGrid");
  const plain = usePlainText();
  return (
    <li>
      <button
        type="button"
        className={`grid-cell grid-${student.state}`}
        aria-pressed={selected}
        data-testid="grid-student"
        data-student-id={student.id}
        data-state={student.state}
        onClick={() => onSelect(student.id)}
      >
        <span className="grid-seat">
          {student.number === null
            ? plain(t("noSeat"))
            : plain(
                t("seat", { grade: student.grade ?? "", className: student.className ?? "", number: student.number }),
              )}
        </span>
        <span className="grid-name">
          {student.name ? <PersonName name={student.name} /> : <RichTextClient text={t("unnamed")} />}
        </span>
        <span className="grid-state-label">
          <RichTextClient text={t(student.state)} />
        </span>
      </button>
    </li>
  );
});

/**
 * Who is still working (docs/adr/0062-who-is-still-working.md): the class's students by 番号 with
 * their state on the current scene, counts, and beside them (a sheet over them on a narrower screen) the answer
 * of the one selected, then `side` (the class's results). Follows the teacher's live state (the session's
 * stream: no polling per student); names never reach a student's stream.
 */
export function LiveGrid({
  grid,
  scene,
  activityId,
  schoolId,
  side,
}: {
  grid: LiveGridData | null;
  scene: RenderedScene;
  activityId: string;
  schoolId?: string;
  side?: ReactNode;
}) {
  const [selected, setSelected] = useState<string | null>(null);
  const cells = useRef<HTMLUListElement>(null);
  const select = useCallback((id: string) => setSelected((was) => (was === id ? null : id)), []);
  // closed (Esc or its button): the focus goes back to the student's card
  const close = useCallback(() => {
    setSelected(null);
    if (selected) cells.current?.querySelector<HTMLElement>(`[data-student-id="${selected}"]`)?.focus();
  }, [selected]);
  const chosen = grid?.students.find((s) => s.id === selected) ?? null;
  return (
    <div className="console-workspace" data-testid="console-workspace">
      {grid ? <GridCells grid={grid} selected={selected} select={select} cells={cells} /> : null}
      <div className="stack console-side">
        {chosen && grid ? (
          <>
            <div className="grid-answer-backdrop" onClick={close} aria-hidden="true" />
            <GridAnswer
              key={chosen.id}
              student={chosen}
              scene={scene}
              activityId={activityId}
              schoolId={schoolId}
              sessionId={grid.sessionId}
              onClose={close}
            />
          </>
        ) : null}
        {side}
      </div>
    </div>
  );
}

/** The grid itself: the heading and counts, then a card per student. */
function GridCells({
  grid,
  selected,
  select,
  cells,
}: {
  grid: LiveGridData;
  selected: string | null;
  select: (id: string) => void;
  cells: RefObject<HTMLUListElement | null>;
}) {
  const t = useTranslations("LiveGrid");
  const plain = usePlainText();
  // the render of an update, measured in the browser (the bench's target: < 16 ms for 40 students): from this
  // render's start to its DOM committed, as a "live-grid-render" performance measure
  if (typeof window !== "undefined") performance.mark("live-grid-render-start");
  useLayoutEffect(() => {
    try {
      performance.measure("live-grid-render", "live-grid-render-start");
      performance.clearMarks("live-grid-render-start");
      performance.clearMeasures("live-grid-render");
    } catch {
      // a browser without user timing: nothing measured
    }
  });
  const counts = gridCounts(grid.students);
  return (
    <section
      className="card stack live-grid"
      aria-labelledby="live-grid-heading"
      data-testid="live-grid"
      data-students={grid.students.length}
    >
      <div className="row wrap guide-bar">
        <h2 id="live-grid-heading">
          <RichTextClient text={t("heading")} />
        </h2>
        <span className="top-bar-spacer" />
        <p
          className="live-counts"
          data-testid="grid-counts"
          data-answered={counts.answered}
          data-working={counts.working}
          data-offline={counts.offline}
          data-not-joined={counts.notJoined}
          data-total={grid.students.length}
        >
          <RichTextClient text={t("answeredCount", { answered: counts.answered, total: grid.students.length })} />
        </p>
      </div>
      <p className="muted grid-summary">
        <RichTextClient text={t("summary", counts)} />
      </p>
      {grid.students.length === 0 ? (
        <p className="empty" data-testid="grid-empty">
          <RichTextClient text={grid.klass ? t("empty") : t("emptyWhole")} />
        </p>
      ) : (
        <ul ref={cells} className="grid-students bare-list" aria-label={plain(t("gridLabel"))}>
          {grid.students.map((s) => (
            <GridCell key={s.id} student={s} selected={s.id === selected} onSelect={select} />
          ))}
        </ul>
      )}
    </section>
  );
}
