"use client";
import { type RefObject, useLayoutEffect } from "react";

/** The smallest share of its full size the projector's type shrinks to (its question never below 4% of the screen). */
const MIN_FIT = 0.5;

/** Whether a panel of the stage holds more than it shows (it would scroll, or cut its content off). */
function overflows(stage: HTMLElement): boolean {
  const boxes = [stage, ...stage.querySelectorAll<HTMLElement>(".projector-panel")];
  return boxes.some((b) => b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1);
}

/**
 * Sets `--fit` on the stage: the largest share (MIN_FIT to 1) of the type's full size at which every panel shows
 * all it holds, found by halving (seven layouts). Done again when `key` changes (another scene, new answers) and
 * when the stage's size does (the window, the fonts loaded).
 */
export function useFitToScreen(ref: RefObject<HTMLElement | null>, key: string) {
  useLayoutEffect(() => {
    const stage = ref.current;
    if (!stage) return;
    const fit = () => {
      stage.style.setProperty("--fit", "1");
      if (!overflows(stage)) return;
      let [fits, over] = [MIN_FIT, 1];
      for (let i = 0; i < 7; i++) {
        const mid = (fits + over) / 2;
        stage.style.setProperty("--fit", mid.toFixed(3));
        if (overflows(stage)) over = mid;
        else fits = mid;
      }
      stage.style.setProperty("--fit", fits.toFixed(3));
    };
    fit();
    let width = stage.clientWidth;
    let height = stage.clientHeight;
    const resized = new ResizeObserver(() => {
      if (stage.clientWidth === width && stage.clientHeight === height) return;
      [width, height] = [stage.clientWidth, stage.clientHeight];
      fit();
    });
    resized.observe(stage);
    void document.fonts?.ready.then(fit);
    return () => resized.disconnect();
  }, [ref, key]);
}
