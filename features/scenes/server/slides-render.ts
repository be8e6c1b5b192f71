import "server-only";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { idleCommand } from "@/platform/ops/idle-child";
import { MAX_IMAGE_EDGE } from "../shared/image-limits";
import type { SlidesProblem } from "../shared/slide-limits";

/**
 * The pages of a PDF as pictures, drawn by Debian's poppler (`pdfinfo`, `pdftoppm`) in child processes at idle
 * priority (platform/ops/idle-child.ts idleCommand), one page at a time and one PDF at a time per server
 * process, so a deck being brought in never takes the core that serves a live lesson (features/scenes/README.md
 * "Slides from a PDF").
 */

/** A page that takes longer is given up (a malformed or hostile file), and the whole PDF with it. */
const PAGE_TIMEOUT_MS = 60_000;
const INFO_TIMEOUT_MS = 20_000;

const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
export const isPdf = (bytes: Uint8Array) => PDF_SIGNATURE.every((b, i) => bytes[i] === b);

function run(command: string, args: string[], timeout: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout, maxBuffer: 1024 * 1024, killSignal: "SIGKILL" }, (error, stdout, stderr) =>
      error ? reject(Object.assign(error, { stderr: String(stderr) })) : resolve({ stdout, stderr }),
    );
  });
}

type PdfFile = { path: string; pages: number };

/** The PDF's page count, or why it cannot be read: a password it needs is "encrypted". */
async function pageCount(file: string): Promise<{ ok: true; pages: number } | { ok: false; problem: SlidesProblem }> {
  try {
    const { stdout } = await run("pdfinfo", [file], INFO_TIMEOUT_MS);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? 0);
    return pages > 0 ? { ok: true, pages } : { ok: false, problem: "unreadable" };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    return { ok: false, problem: /password/i.test(stderr) ? "encrypted" : "unreadable" };
  }
}

/**
 * Page `n` (from 1) as the JPEG that is stored (quality 82, optimised Huffman tables: what an uploaded photo is
 * re-encoded to), its longest edge MAX_IMAGE_EDGE pixels: drawn and encoded here at idle priority, so the
 * server's process only reads its header (image-process.ts acceptRenderedJpeg). Re-encoding each page in the
 * server's own process slowed a live lesson beside an import to 3× its quiet p99 (docs/benchmarks.md).
 */
async function renderPage(file: PdfFile, n: number): Promise<Buffer> {
  const out = path.join(path.dirname(file.path), `page-${n}`);
  const page = ["-f", String(n), "-l", String(n), "-singlefile"];
  const args = [
    "-jpeg",
    "-jpegopt",
    "quality=82,optimize=y",
    "-scale-to",
    String(MAX_IMAGE_EDGE),
    ...page,
    file.path,
    out,
  ];
  await run(...idleCommand("pdftoppm", args), PAGE_TIMEOUT_MS);
  const picture = `${out}.jpg`;
  try {
    return await readFile(picture);
  } finally {
    await rm(picture, { force: true });
  }
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
    try {
      const file = path.join(dir, "deck.pdf");
      await writeFile(file, bytes, { mode: 0o600 });
      const count = await pageCount(file);
      if (!count.ok) return count;
      const pdf = { path: file, pages: count.pages };
      return await work(count.pages, (n) => renderPage(pdf, n));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
