import "server-only";
import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CommandFailed, environmentOf, PROGRAM_ENV_KEYS, runCommand } from "@/platform/ops/command-runner";
import { idleCommand } from "@/platform/ops/idle-child";
import { MAX_IMAGE_EDGE } from "../shared/image-limits";
import type { SlidesProblem } from "../shared/slide-limits";

/**
 * The pages of a PDF as pictures, drawn by Debian's poppler (`pdfinfo`, `pdftoppm`) at idle priority
 * (platform/ops/idle-child.ts idleCommand), started by the server's command runner (platform/ops/command-runner.ts)
 * and never forked from the server's own process, one pdftoppm for all its pages and one PDF at a time per server
 * process, so a deck being brought in never takes the core or the event loop that serve a live lesson
 * (features/scenes/README.md "Slides from a PDF").
 */

/** A page that takes longer is given up (a malformed or hostile file), and the whole PDF with it. */
const PAGE_TIMEOUT_MS = 60_000;
const INFO_TIMEOUT_MS = 20_000;

const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
export const isPdf = (bytes: Uint8Array) => PDF_SIGNATURE.every((b, i) => bytes[i] === b);

/**
 * What poppler's programs are given of the server's environment: what any program is given (where programs are found,
 * the locale) and where fonts' caches are. Never the server's secrets (the database's address, the signing keys): a
 * hostile PDF is parsed there.
 */
const popplerEnv = () => environmentOf([...PROGRAM_ENV_KEYS, "XDG_CACHE_HOME"]);

/**
 * Why a page or the page count could not be had: the file's fault ("unreadable": poppler failed on it or took too long
 * and was killed) or the server's ("failed": the command runner ended, a page could not be read back).
 */
export const drawingProblem = (error: unknown): SlidesProblem =>
  error instanceof CommandFailed ? "unreadable" : "failed";

/** A poppler program run by the server's command runner (platform/ops/command-runner.ts), never forked from here. */
function run(command: string, args: string[], timeout: number) {
  return runCommand(command, args, { timeout, maxBuffer: 1024 * 1024, env: popplerEnv() });
}

type PdfFile = { path: string; pages: number };

/** The PDF's page count, or why it cannot be had: a password it needs is "encrypted" (drawingProblem otherwise). */
async function pageCount(file: string): Promise<{ ok: true; pages: number } | { ok: false; problem: SlidesProblem }> {
  try {
    const { stdout } = await run(...idleCommand("pdfinfo", [file]), INFO_TIMEOUT_MS).done;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? 0);
    return pages > 0 ? { ok: true, pages } : { ok: false, problem: "unreadable" };
  } catch (error) {
    const encrypted = error instanceof CommandFailed && /password/i.test(error.stderr);
    return { ok: false, problem: encrypted ? "encrypted" : drawingProblem(error) };
  }
}

/** How often the drawing's folder is looked at for the next page. */
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Every page as the JPEG that is stored (quality 82, optimised Huffman tables: what an uploaded photo is
 * re-encoded to), its longest edge MAX_IMAGE_EDGE pixels: drawn and encoded at idle priority by **one** pdftoppm
 * for the whole PDF, started at the first page asked for, so the server's process only reads each page's header
 * (image-process.ts acceptRenderedJpeg). Re-encoding each page in the server's own process slowed a live lesson
 * beside an import to 3× its quiet p99, and so did starting a process per page: a process started from the
 * server's (hundreds of MB) is a fork that holds its event loop for milliseconds (docs/benchmarks.md), hence the
 * runner, which starts them instead. pdftoppm
 * writes the pages in order, each before it begins the next, so page `n` is whole once page `n + 1` exists or
 * the drawing has ended. No new page within PAGE_TIMEOUT_MS (a malformed or hostile file) ends the drawing.
 */
function pageDrawer(file: PdfFile) {
  const root = path.join(path.dirname(file.path), "page");
  const digits = String(file.pages).length;
  const picture = (n: number) => `${root}-${String(n).padStart(digits, "0")}.jpg`;
  let drawing: ReturnType<typeof run> | null = null;
  /** undefined while drawing; then null (every page drawn) or why it failed */
  let ended: Error | null | undefined;
  const start = () => {
    const args = ["-jpeg", "-jpegopt", "quality=82,optimize=y", "-scale-to", String(MAX_IMAGE_EDGE)];
    const [command, all] = idleCommand("pdftoppm", [...args, "-f", "1", "-l", String(file.pages), file.path, root]);
    drawing = run(command, all, 0);
    drawing.done.then(
      () => (ended = null),
      (error: unknown) => (ended = error instanceof Error ? error : new Error(String(error))),
    );
  };
  let progressAt = 0;
  const page = async (n: number): Promise<Buffer> => {
    if (!drawing) start();
    progressAt = progressAt || Date.now();
    while (ended === undefined && !(n < file.pages && (await exists(picture(n + 1))))) {
      if (Date.now() - progressAt > PAGE_TIMEOUT_MS) drawing?.kill();
      await sleep(POLL_MS);
    }
    if (ended) throw ended;
    progressAt = Date.now();
    try {
      return await readFile(picture(n));
    } finally {
      await rm(picture(n), { force: true });
    }
  };
  /** the drawing given up (the import ended early): the process is not left running */
  const stop = () => {
    if (ended === undefined) drawing?.kill();
  };
  return { page, stop };
}

const shared = globalThis as unknown as { slidesTurn?: Promise<unknown> };

/** Runs `work` after every PDF this process is already drawing (one at a time, shared by every route bundle). */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const next = (shared.slidesTurn ?? Promise.resolve()).then(work);
  shared.slidesTurn = next.catch(() => undefined);
  return next;
}

/**
 * Opens the PDF (`bytes`) in a private temporary folder and hands `work` its page count and a function drawing
 * one page; the folder is removed afterwards. A file that is no PDF, needs a password or cannot be read is
 * refused before any page is drawn.
 */
export function withPdfPages<T>(
  bytes: Uint8Array,
  work: (pages: number, render: (n: number) => Promise<Buffer>) => Promise<T>,
): Promise<T | { ok: false; problem: SlidesProblem }> {
  if (!isPdf(bytes)) return Promise.resolve({ ok: false, problem: "type" });
  return inTurn(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "manabiya-slides-"));
    let drawer: ReturnType<typeof pageDrawer> | undefined;
    try {
      const file = path.join(dir, "deck.pdf");
      await writeFile(file, bytes, { mode: 0o600 });
      const count = await pageCount(file);
      if (!count.ok) return count;
      drawer = pageDrawer({ path: file, pages: count.pages });
      return await work(count.pages, drawer.page);
    } finally {
      drawer?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
}
