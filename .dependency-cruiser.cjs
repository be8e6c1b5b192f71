// The import rules of docs/architecture.md, checked by `npm test` (scripts/test-all.ts, the "boundaries"
// step) and by tests/repo/boundaries.test.ts, which plants a break of each rule and watches it fail.
/** Features from lowest to highest: a feature imports only features before it. */
const FEATURES = ["scenes", "people", "activities", "play", "results", "rostering", "lti"];

const featureOrder = FEATURES.slice(0, -1).map((feature, i) => ({
  name: `features-downwards-${feature}`,
  comment: `${feature} is below ${FEATURES.slice(i + 1).join(", ")}: it may not import them`,
  severity: "error",
  // a test may build its state with any feature (an image's cleanup needs the activity that places it)
  from: { path: `^features/${feature}/`, pathNot: "/tests/" },
  to: { path: `^features/(${FEATURES.slice(i + 1).join("|")})/` },
}));

/** The files that may reach the database: the platform's db module and the query and command files. */
const DATABASE_FILES = [
  "^platform/db/",
  "^(features/[^/]+/server|platform/[^/]+)/[a-z-]*(queries|commands)[.]ts$",
  "(^|/)tests/",
  "^(tools|scripts|prisma)/",
];

module.exports = {
  forbidden: [
    ...featureOrder,
    {
      name: "platform-below-features",
      comment: "the platform serves every feature and knows none of them",
      severity: "error",
      from: { path: "^platform/", pathNot: "/tests/" },
      to: { path: "^(features|screens|server|tools|app)/" },
    },
    {
      name: "features-below-screens",
      comment: "features are composed by screens and routes, never the other way round",
      severity: "error",
      from: { path: "^features/", pathNot: "/tests/" },
      to: { path: "^(screens|server|tools|app)/" },
    },
    {
      name: "product-apart-from-tools",
      comment: "the product (routes, screens, server) does not run the bench or the operator tools",
      severity: "error",
      from: { path: "^(app|screens|server)/" },
      to: { path: "^tools/" },
    },
    {
      name: "routes-on-top",
      comment: "app/ holds the route files: nothing imports them",
      severity: "error",
      from: { path: "^(features|platform|screens|server)/" },
      to: { path: "^app/" },
    },
    {
      name: "shared-is-browser-safe",
      comment: "a feature's shared/ code runs in the browser too: it imports neither its server/ nor its ui/",
      severity: "error",
      from: { path: "^features/([^/]+)/shared/" },
      to: { path: "^features/[^/]+/(server|ui)/" },
    },
    {
      name: "database-in-queries-and-commands",
      comment: "only platform/db and a feature's queries/commands files reach the database (the client or a pool)",
      severity: "error",
      from: { pathNot: DATABASE_FILES },
      to: { path: "^platform/db/(index|pools|client)[.]ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "next-auth-in-platform-auth",
      comment: "Auth.js is wrapped once, in platform/auth (tests and the bench sign their session cookies with it)",
      severity: "error",
      from: { pathNot: ["^platform/auth/", "(^|/)tests/", "^tools/bench/"] },
      to: { path: "(^|/)node_modules/(next-auth|@auth)/" },
    },
    {
      name: "no-circular",
      comment: "no import cycle, not even one closed by a type-only import: a shared type lives below both modules",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)([.]next|platform/db/generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
  },
};
