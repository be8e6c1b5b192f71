import "server-only";
import type { SchoolCtx } from "@/features/people/server/school-action";
import { acceptRenderedJpeg } from "@/features/scenes/server/image-process";
import type { ProcessedImage } from "@/features/scenes/server/image-process";
import { keepImages, type StoredImage } from "@/features/scenes/server/image-store";
import { drawingProblem, withPdfPages } from "@/features/scenes/server/slides-render";
import type { ImageProblem } from "@/features/scenes/shared/image-limits";
import { isStorableText, type Scene } from "@/features/scenes/shared/schema";
import {
  MAX_SLIDES_PAGES,
  type SlidesLine,
  type SlidesProblem,
  type SlidesSceneType,
} from "@/features/scenes/shared/slide-limits";
import { MAX_SCENES } from "../shared/scene-schema";
import { appendScenes } from "./scene-commands";

export interface SlidesInput {
  activityId: string;
  /** The activity version the editor shows: a change by someone else meanwhile refuses the import ("conflict"). */
  version: number;
  /** The file's name as the teacher chose it, for the scenes' titles; null when none fits. */
  name: string | null;
  /** `info`: each page shown; `drawing`: each page a worksheet the students write on (its image drawn on). */
  as: SlidesSceneType;
  /** How many scenes the activity has now (read by the route when it found the activity). */
  scenes: number;
  bytes: Uint8Array;
}
type Outcome = Exclude<SlidesLine, { page: number }>;

const PAGE_PROBLEM: Record<ImageProblem, SlidesProblem> = {
  tooLarge: "unreadable",
  type: "unreadable",
  pixels: "unreadable",
  unreadable: "unreadable",
  failed: "failed",
  busy: "busy",
  quota: "quota",
};

/**
 * Pages stored together (features/scenes/server/image-store.ts keepImages: a few statements for them all): every
 * statement through Prisma holds the server's event loop for a while, which a live lesson beside the import feels,
 * and ten pages of at most MAX_STORED_BYTES are what is held in memory meanwhile.
 */
const STORED_TOGETHER = 10;

/** The file name as a scene title: without its extension, at most 60 characters of storable text, or null. */
export function slidesName(raw: string | null): string | null {
  const name = (raw ?? "")
    .replace(/\.pdf$/i, "")
    .trim()
    .slice(0, 60)
    .trim();
  return name && isStorableText(name) ? name : null;
}

/** The page's part of a title, 目 with its reading in the stored markup (a kana-mode student reads 「3ページめ」). */
const pageWords = (n: number, ruby: boolean) => `${n}ページ${ruby ? "|目(め)" : "目"}`;

/**
 * Page `n`'s scene titled by the file and the page (the alt text the same words without markup), the page as its
 * image: shown, or drawn on.
 */
function pageScene(as: SlidesSceneType, name: string | null, n: number, image: StoredImage): Scene {
  const title = (ruby: boolean) => (name ? `${name}（${pageWords(n, ruby)}）` : `PDF ${pageWords(n, ruby)}`);
  const { id, width, height } = image;
  const content = { prompt: title(true), image: { id, width, height, alt: title(false) } };
  return as === "drawing" ? { type: "drawing", content: { ...content, onImage: true } } : { type: "info", content };
}

/**
 * Page `n` drawn and checked as the JPEG to store, or the problem: the page's fault is "unreadable", the server's
 * (the command runner ended) "failed" (drawingProblem).
 */
async function drawPage(
  render: (n: number) => Promise<Buffer>,
  n: number,
): Promise<{ ok: true; image: ProcessedImage } | { ok: false; problem: SlidesProblem }> {
  let jpeg: Buffer;
  try {
    jpeg = await render(n);
  } catch (error) {
    return { ok: false, problem: drawingProblem(error) };
  }
  const image = await acceptRenderedJpeg(jpeg);
  return image.ok ? { ok: true, image: image.image } : { ok: false, problem: "unreadable" };
}

/**
 * Brings a PDF in as scenes (features/scenes/README.md "Slides from a PDF"): every page drawn (a JPEG stored as
 * drawn, never decoded in this process) and stored as the school's image, STORED_TOGETHER at a time (`onPage` after
 * each page), then one scene per page appended in one transaction. Refused before any
 * page is drawn when the file is no PDF, needs a password, has more than MAX_SLIDES_PAGES pages or would take
 * the activity past MAX_SCENES; nothing is added when a page fails or `signal` aborts (the pages already
 * stored are then unused images, removed by the image sweep).
 */
export async function importSlides(
  ctx: SchoolCtx,
  input: SlidesInput,
  onPage: (page: number, pages: number) => void,
  signal: AbortSignal,
): Promise<Outcome> {
  const before = input.scenes;
  return withPdfPages(input.bytes, async (pages, render): Promise<Outcome> => {
    if (pages > MAX_SLIDES_PAGES) return { ok: false, problem: "tooManyPages" };
    if (before + pages > MAX_SCENES) return { ok: false, problem: "tooManyScenes" };
    const scenes: Scene[] = [];
    let drawn: ProcessedImage[] = [];
    for (let n = 1; n <= pages; n++) {
      if (signal.aborted) return { ok: false, problem: "failed" };
      const image = await drawPage(render, n);
      if (!image.ok) return image;
      drawn.push(image.image);
      if (drawn.length === STORED_TOGETHER || n === pages) {
        const stored = await keepImages(ctx.schoolId, ctx.actorId, drawn);
        if (!stored.ok) return { ok: false, problem: PAGE_PROBLEM[stored.problem] };
        const first = n - drawn.length + 1;
        stored.images.forEach((img, i) => scenes.push(pageScene(input.as, input.name, first + i, img)));
        drawn = [];
      }
      onPage(n, pages);
    }
    const added = await appendScenes(ctx, { activityId: input.activityId, version: input.version, scenes, via: "pdf" });
    if (added.ok) return { ok: true, data: { version: added.data.version, added: pages } };
    if (added.code === "CONFLICT") return { ok: false, problem: "conflict" };
    return { ok: false, problem: added.fieldErrors?.scene?.[0] === "tooMany" ? "tooManyScenes" : "failed" };
  });
}
