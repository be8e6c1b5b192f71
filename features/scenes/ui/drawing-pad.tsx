"use client";
import { useTranslations } from "next-intl";
import { type PointerEvent, useId, useMemo, useRef, useState } from "react";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { canvasPoint, extendStroke, roomForStroke, withStroke } from "@/features/scenes/shared/drawing-canvas";
import {
  DRAWING_COLORS,
  DRAWING_HEIGHT,
  DRAWING_SIZES,
  DRAWING_WIDTH,
  type DrawingAnswer,
  type DrawingColor,
  type DrawingStroke,
  emptyDrawing,
} from "@/features/scenes/shared/drawing-limits";
import { strokePath } from "@/features/scenes/shared/drawing-outline";
import { DrawingBackground } from "./drawing-background";
import type { RenderedImage } from "./types";

const COLOR_KEYS = ["black", "red", "blue", "green"] as const;
const SIZE_KEYS = ["thin", "medium", "thick"] as const;

/**
 * The student's drawing canvas (docs/product-design.md "Drawing"): pen,
 * finger or mouse, a few pens and sizes, undo and clear (asked first). A
 * stroke becomes part of the answer when the pointer lifts; one that would
 * pass a limit the server checks (features/scenes/shared/drawing-limits.ts) is not added and
 * the canvas says it is full (the rules: features/scenes/shared/drawing-canvas.ts). Loaded only on a drawing scene (scene-view.tsx).
 */
export default function DrawingPad({
  answer,
  onAnswer,
  readOnly,
  background,
}: {
  answer: DrawingAnswer | null;
  onAnswer: (a: DrawingAnswer) => void;
  readOnly?: boolean;
  /** The picture drawn on (a worksheet's page): under the strokes, its alt text in the canvas's name. */
  background?: RenderedImage;
}) {
  const t = useTranslations("Scenes.drawing");
  const plain = usePlainText();
  const uid = useId();
  const { confirm, dialog } = useConfirm();
  const drawing = answer ?? emptyDrawing();
  const [color, setColor] = useState<DrawingColor>(DRAWING_COLORS[0]);
  const [size, setSize] = useState<number>(DRAWING_SIZES[1]);
  const [full, setFull] = useState(false);
  const { current, down, move, up } = useStrokeInput({ drawing, readOnly, color, size, onAnswer, setFull });
  const paths = useMemo(() => drawing.strokes.map((s) => ({ d: strokePath(s), color: s.color })), [drawing.strokes]);

  const undo = () => {
    setFull(false);
    onAnswer({ ...drawing, strokes: drawing.strokes.slice(0, -1) });
  };
  const clear = async () => {
    if (await confirm({ title: t("clearTitle"), body: t("clearBody"), confirm: t("clearConfirm"), danger: true })) {
      setFull(false);
      onAnswer(emptyDrawing());
    }
  };

  return (
    <div className="stack drawing-pad" data-testid="drawing-pad">
      {readOnly ? null : (
        <DrawingTools
          uid={uid}
          color={color}
          onColor={setColor}
          size={size}
          onSize={setSize}
          empty={drawing.strokes.length === 0}
          onUndo={undo}
          onClear={() => void clear()}
        />
      )}
      <svg
        className="drawing-canvas"
        viewBox={`0 0 ${DRAWING_WIDTH} ${DRAWING_HEIGHT}`}
        role="img"
        aria-label={plain(background ? t("canvasOn", { alt: background.alt }) : t("canvas"))}
        data-testid="drawing-canvas"
        data-strokes={drawing.strokes.length}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        onLostPointerCapture={up}
      >
        <DrawingBackground src={background?.src} />
        {paths.map((p, i) => (p.d ? <path key={i} d={p.d} fill={p.color} /> : null))}
        {current ? <path d={strokePath(current, false)} fill={current.color} /> : null}
      </svg>
      <p className="muted small" aria-live="polite" data-testid="drawing-count">
        <RichTextClient
          text={drawing.strokes.length === 0 ? t("empty") : t("strokes", { count: drawing.strokes.length })}
        />
      </p>
      {full ? (
        <p className="alert alert-error" role="alert" data-testid="drawing-full">
          <span>
            <RichTextClient text={t("full")} />
          </span>
        </p>
      ) : null}
      {dialog}
    </div>
  );
}

/**
 * A stroke drawn with the primary pointer: started on pointerdown (unless the drawing is full), extended
 * on each move (coalesced events too), added to the answer when the pointer lifts (or the canvas says
 * it is full).
 */
function useStrokeInput({
  drawing,
  readOnly,
  color,
  size,
  onAnswer,
  setFull,
}: {
  drawing: DrawingAnswer;
  readOnly?: boolean;
  color: DrawingColor;
  size: number;
  onAnswer: (a: DrawingAnswer) => void;
  setFull: (full: boolean) => void;
}) {
  const [current, setCurrent] = useState<DrawingStroke | null>(null);
  const stroke = useRef<{ id: number; box: DOMRect; stroke: DrawingStroke } | null>(null);
  const down = (e: PointerEvent<SVGSVGElement>) => {
    if (readOnly || !e.isPrimary || stroke.current) return;
    e.preventDefault();
    if (!roomForStroke(drawing)) return setFull(true);
    const box = e.currentTarget.getBoundingClientRect();
    const first = canvasPoint(e, box);
    if (!first) return;
    try {
      e.currentTarget.setPointerCapture(e.pointerId); // the stroke goes on past the canvas's edge
    } catch {
      // a pointer the browser no longer tracks: the stroke still ends on pointerup
    }
    const s: DrawingStroke = { color, size, points: [first] };
    stroke.current = { id: e.pointerId, box, stroke: s };
    setCurrent(s);
  };
  const move = (e: PointerEvent<SVGSVGElement>) => {
    const live = stroke.current;
    if (!live || e.pointerId !== live.id) return;
    const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
    const samples = (events.length > 0 ? events : [e.nativeEvent])
      .map((ev) => canvasPoint(ev, live.box))
      .filter((p) => p !== null);
    const points = extendStroke(drawing, live.stroke.points, samples);
    if (points === live.stroke.points) return;
    live.stroke = { ...live.stroke, points };
    setCurrent(live.stroke);
  };
  const up = (e: PointerEvent<SVGSVGElement>) => {
    const live = stroke.current;
    if (!live || e.pointerId !== live.id) return;
    stroke.current = null;
    setCurrent(null);
    const next = withStroke(drawing, live.stroke);
    if (!next) return setFull(true);
    onAnswer(next);
  };
  return { current, down, move, up };
}

/** The pens, the sizes, undo and clear. */
function DrawingTools({
  uid,
  color,
  onColor,
  size,
  onSize,
  empty,
  onUndo,
  onClear,
}: {
  uid: string;
  color: DrawingColor;
  onColor: (color: DrawingColor) => void;
  size: number;
  onSize: (size: number) => void;
  empty: boolean;
  onUndo: () => void;
  onClear: () => void;
}) {
  const t = useTranslations("Scenes.drawing");
  const plain = usePlainText();
  return (
    <div className="row drawing-tools">
      <div className="row" role="radiogroup" aria-labelledby={`${uid}-pens`}>
        <span id={`${uid}-pens`} className="visually-hidden">
          {plain(t("pens"))}
        </span>
        {DRAWING_COLORS.map((c, i) => (
          <label key={c} className="drawing-swatch" style={{ color: c }}>
            <input
              type="radio"
              name={`${uid}-color`}
              checked={color === c}
              onChange={() => onColor(c)}
              data-testid={`pen-${COLOR_KEYS[i]}`}
            />
            <span aria-hidden="true" className="drawing-dot" />
            <span className="visually-hidden">{plain(t(COLOR_KEYS[i]!))}</span>
          </label>
        ))}
      </div>
      <div className="row" role="radiogroup" aria-labelledby={`${uid}-sizes`}>
        <span id={`${uid}-sizes`} className="visually-hidden">
          {plain(t("sizes"))}
        </span>
        {DRAWING_SIZES.map((s, i) => (
          <label key={s} className="drawing-size">
            <input type="radio" name={`${uid}-size`} checked={size === s} onChange={() => onSize(s)} />
            <RichTextClient text={t(SIZE_KEYS[i]!)} />
          </label>
        ))}
      </div>
      <button
        type="button"
        className="button button-small"
        onClick={onUndo}
        disabled={empty}
        data-testid="drawing-undo"
      >
        <RichTextClient text={t("undo")} />
      </button>
      <button
        type="button"
        className="button button-small"
        onClick={onClear}
        disabled={empty}
        data-testid="drawing-clear"
      >
        <RichTextClient text={t("clear")} />
      </button>
    </div>
  );
}
