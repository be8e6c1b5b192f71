/**
 * How the production server compresses what Next.js answers (pages, RSC,
 * server actions' replies, route handlers; server/main.ts), as it streams:
 * brotli where the browser accepts it (every Chromium does), gzip else; a
 * response that says `Cache-Control: no-transform` (the event streams,
 * features/play/server/sse.ts) passes uncompressed. The build's static files have their
 * own copies, compressed once (server/static-brotli.ts).
 *
 * Brotli quality 5 (docs/adr/0046-brotli-compressed-once.md), with a 64 KB
 * window (lgwin 16) instead of brotli's default 4 MB: every open compressed
 * response holds its own encoder, and at the default window quality 5's
 * encoder takes about 1.1 MB, a class opening its pages together forty of
 * them; with the 64 KB window it takes about 0.3 MB, the same pages come out
 * the same size or smaller (a document or RSC payload is well under 64 KB),
 * for the same CPU.
 */
import compression from "compression";
import { constants } from "node:zlib";

export const PAGE_BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 5,
  [constants.BROTLI_PARAM_LGWIN]: 16,
} as const;

/** The middleware: call it with (req, res, next) before Next.js's handler. */
export function pageCompression() {
  return compression({ brotli: { params: PAGE_BROTLI_PARAMS } });
}
