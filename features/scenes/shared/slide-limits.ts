/**
 * Slides and worksheets brought in as a PDF (features/scenes/README.md "Slides from a PDF"), zod-free so the
 * editor can check a file before sending it. The server decides again on the bytes themselves.
 */

/** At most 20 MiB: a 50-page deck exported with its pictures fits. */
export const MAX_SLIDES_BYTES = 20 * 1024 * 1024;
/** At most 50 pages: each becomes a scene, and an activity holds at most 200. */
export const MAX_SLIDES_PAGES = 50;

/** What each page becomes: an information scene that shows it, or a drawing scene written on it. */
export const SLIDES_SCENE_TYPES = ["info", "drawing"] as const;
export type SlidesSceneType = (typeof SLIDES_SCENE_TYPES)[number];

/** Why a PDF was refused: the keys of SceneEditor.slides.problems in the catalogues. */
export type SlidesProblem =
  | "tooLarge"
  | "type"
  | "encrypted"
  | "tooManyPages"
  | "tooManyScenes"
  | "unreadable"
  | "quota"
  | "busy"
  | "conflict"
  | "failed";

/** A line of the import's answer, one JSON object per line: a page done, then the outcome. */
export type SlidesLine =
  | { page: number; pages: number }
  | { ok: true; data: { version: number; added: number } }
  | { ok: false; problem: SlidesProblem };
