/**
 * Makes the app's raster icons from its mark (the same as platform/ui/logo.tsx) in
 * Debian's Chromium: public/icon-192.png, public/icon-512.png, public/icon-maskable-512.png,
 * app/apple-icon.png and app/favicon.ico. Run once after changing the mark:
 * `npx tsx scripts/make-icons.ts`; the files are committed.
 */
import { writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { FULL_CHROMIUM } from "./lib/chromium";

const GREEN = "#1f7a4d"; // --color-accent-green
const MARK = '<path d="M7 22V11l9 6 9-6v11" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round"/>';
/** `rounded`: the tile as in the logo; otherwise full bleed with the mark inside the maskable safe zone. */
const svg = (rounded: boolean) =>
  rounded
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${GREEN}"/>${MARK}</svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${GREEN}"/><g transform="translate(4.8 4.8) scale(0.7)">${MARK}</g></svg>`;

/** An .ico holding PNG images (read by every browser since 2007). */
function ico(pngs: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size % 256, e);
    header.writeUInt8(size % 256, e + 1);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...pngs.map((p) => p.data)]);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: FULL_CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage();
  const render = async (size: number, rounded: boolean) => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(rounded).replace("<svg ", `<svg width="${size}" height="${size}" `)}</body></html>`,
    );
    return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  writeFileSync("public/icon-192.png", await render(192, true));
  writeFileSync("public/icon-512.png", await render(512, true));
  writeFileSync("public/icon-maskable-512.png", await render(512, false));
  writeFileSync("app/apple-icon.png", await render(180, false));
  writeFileSync(
    "app/favicon.ico",
    ico([
      { size: 32, data: await render(32, true) },
      { size: 48, data: await render(48, true) },
    ]),
  );
  writeFileSync("app/icon.svg", `${svg(true)}\n`);
  await browser.close();
}

void main();
