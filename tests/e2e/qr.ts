import { execFileSync, spawnSync } from "node:child_process";

/** The QR codes zbar (a real QR reader) finds in an image, in the order it prints them; none is an empty list. */
export function qrCodesIn(image: string): string[] {
  // zbarimg exits 4 when it finds no code: that is an answer here, not a failure
  const run = spawnSync("zbarimg", ["--quiet", "--raw", image], { encoding: "utf8" });
  if (run.status !== 0 && run.status !== 4) throw new Error(`zbarimg ${image}: ${run.stderr}`);
  const out = run.stdout.trim();
  return out ? out.split("\n") : [];
}

/** How many pages a PDF has (poppler's pdfinfo). */
export function pdfPageCount(pdf: string): number {
  return Number(/^Pages:\s+(\d+)$/m.exec(execFileSync("pdfinfo", [pdf], { encoding: "utf8" }))![1]);
}

/**
 * The QR codes on one page of a PDF, rasterised as a printer would (300 dpi), with the page's image.
 * A decoder misses a sharp, valid code now and then at one resolution and reads it at another (zbar
 * missed about 1 code in 400 of our cards at 110 dpi, and a CI run missed 1 of 40 at 200 dpi; each
 * missed code was read at the other resolutions), so a page that shows fewer than `expected` codes is
 * read again at 200 and 400 dpi and the codes are put together: a card counts as readable when a scan
 * at one of these resolutions reads it.
 */
export function qrCodesOnPage(pdf: string, page: number, expected: number): { codes: string[]; image: string } {
  const codes = new Set<string>();
  let image = "";
  for (const dpi of [300, 200, 400]) {
    const prefix = `${pdf}-page${page}-${dpi}dpi`;
    execFileSync("pdftoppm", [
      "-r",
      String(dpi),
      "-png",
      "-singlefile",
      "-f",
      String(page),
      "-l",
      String(page),
      pdf,
      prefix,
    ]);
    image ||= `${prefix}.png`;
    for (const code of qrCodesIn(`${prefix}.png`)) codes.add(code);
    if (codes.size >= expected) break;
  }
  return { codes: [...codes], image };
}
