import { readFileSync } from "node:fs";
import { DockerfileParser } from "dockerfile-ast";
import { describe, expect, it } from "vitest";

/**
 * The production image as `docker build` reads it. This machine has no Docker
 * engine, so the Dockerfile is checked here by reading it; README "Operating
 * Manabiya" says which steps were run where.
 */
const dockerfile = DockerfileParser.parse(readFileSync("Dockerfile", "utf8"));
const dockerignore = readFileSync(".dockerignore", "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  scripts: Record<string, string>;
  engines: { node: string };
};

/** Whether `version` (22.12.0) is in an engines range written as `^20.9.0 || ^24.0.0`. */
function inRange(range: string, version: string) {
  const [major, minor = 0, patch = 0] = version.split(".").map(Number);
  return range.split("||").some((part) => {
    const m = /^\^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`engines: write each range as ^major.minor.patch, not ${part.trim()}`);
    const [lo, loMinor = 0, loPatch = 0] = m.slice(1).map((x) => Number(x ?? 0));
    return major === lo && (minor! > loMinor || (minor === loMinor && patch >= loPatch));
  });
}

interface Step {
  keyword: string;
  args: string;
}
interface Stage {
  name: string | null;
  image: string;
  steps: Step[];
}

/** The build stages in order, each with its instructions (continuation lines joined). */
function stages(): Stage[] {
  const froms = dockerfile.getFROMs();
  return froms.map((from, i) => {
    const start = from.getRange().start.line;
    const end = froms[i + 1]?.getRange().start.line ?? Number.POSITIVE_INFINITY;
    const steps = dockerfile
      .getInstructions()
      .filter((ins) => ins.getRange().start.line > start && ins.getRange().start.line < end)
      .map((ins) => ({
        keyword: ins.getKeyword(),
        args: ins.toString().slice(ins.getKeyword().length).replace(/\s+/g, " ").trim(),
      }));
    return { name: from.getBuildStage(), image: from.getImage() ?? "", steps };
  });
}

const all = stages();
const final = all.at(-1)!;
const stage = (name: string) => all.find((s) => s.name === name);
const runs = (s: Stage | undefined) =>
  (s?.steps ?? []).filter((step) => step.keyword === "RUN").map((step) => step.args);

describe("Dockerfile", () => {
  it("builds in stages: the dependencies, the build, and a final image made from them", () => {
    expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(["deps", "build"]));
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(runs(stage("deps")).join("\n")).toMatch(/\bnpm (ci|install)\b/);
    expect(runs(stage("build")).join("\n")).toMatch(/\bnpm run build\b/);
    // the final image installs nothing itself: it takes the built app from the build stage
    expect(
      final.steps
        .filter((s) => s.keyword === "COPY")
        .map((s) => s.args)
        .join("\n"),
    ).toMatch(/--from=build\b/);
    expect(runs(final).join("\n")).not.toMatch(/\bnpm (ci|install)\b/);
  });

  it("runs a current Node LTS (22 or 24) in every stage", () => {
    for (const s of all) {
      if (all.some((other) => other.name === s.image)) continue; // FROM an earlier stage
      expect(s.image, s.name ?? "final").toMatch(/^node:(22|24)[.-]/);
    }
  });

  it("package.json engines names exactly the Node lines that run it: the tests' and the image's", () => {
    const image = /^node:(\d+)/.exec(final.image)?.[1];
    expect(inRange(pkg.engines.node, process.versions.node), `this machine's Node ${process.versions.node}`).toBe(true);
    expect(inRange(pkg.engines.node, `${image}.99.0`), `the image's Node ${image}`).toBe(true);
    expect(inRange(pkg.engines.node, "21.7.0") || inRange(pkg.engines.node, "23.11.0"), "odd (never LTS) lines").toBe(
      false,
    );
  });

  it("installs exactly the lockfile's versions without running dependencies' install scripts", () => {
    const deps = stage("deps")!;
    const copies = deps.steps
      .filter((s) => s.keyword === "COPY")
      .map((s) => s.args)
      .join("\n");
    expect(copies).toMatch(/package-lock\.json/);
    const install = runs(deps).find((r) => /\bnpm (ci|install)\b/.test(r)) ?? "";
    expect(install).toMatch(/--ignore-scripts/);
    // the project's own postinstall (prisma generate) still runs, explicitly
    expect(install).toMatch(/node scripts\/prisma-generate\.mjs/);
  });

  it("keeps only production dependencies in the final image", () => {
    expect(runs(stage("build")).join("\n")).toMatch(/\bnpm (prune|ci|install)\b[^\n]*--omit=dev/);
  });

  it("checks at build time that the final image's `next build` is current, so `npm start` never rebuilds in the container", () => {
    expect(runs(final).join("\n")).toMatch(/buildIsCurrent/);
  });

  it("runs as an unprivileged user from the start command on, never as root", () => {
    const users = final.steps.filter((s) => s.keyword === "USER").map((s) => s.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const lastUser = final.steps.findLastIndex((s) => s.keyword === "USER");
    expect(final.steps.findIndex((s) => s.keyword === "CMD")).toBeGreaterThan(lastUser);
    expect(final.steps.slice(lastUser).some((s) => s.keyword === "RUN")).toBe(false);
  });

  it("starts what `npm start` starts (migrations, then the server) without npm or a shell between Docker and the app", () => {
    const cmd = final.steps.find((s) => s.keyword === "CMD")?.args ?? "";
    const argv = JSON.parse(cmd) as string[]; // exec form: SIGTERM reaches scripts/start.ts itself
    expect(argv[0]).toBe("node");
    const script = /tsx (scripts\/start\.ts)$/.exec(pkg.scripts.start ?? "")?.[1];
    expect(script).toBeTruthy();
    expect(argv.at(-1)).toBe(script);
  });

  it("asks for a graceful stop (SIGTERM) and probes /healthz", () => {
    expect(final.steps.find((s) => s.keyword === "STOPSIGNAL")?.args).toBe("SIGTERM");
    const health = final.steps.find((s) => s.keyword === "HEALTHCHECK")?.args ?? "";
    expect(health).toMatch(/127\.0\.0\.1:3000\/healthz/);
    expect(final.steps.find((s) => s.keyword === "EXPOSE")?.args).toBe("3000");
  });

  it("bakes in no secret: no secret-like ENV or ARG, and .env files stay out of the build context", () => {
    for (const s of all) {
      for (const step of s.steps.filter((x) => x.keyword === "ENV" || x.keyword === "ARG")) {
        expect(step.args).not.toMatch(/(SECRET|PASSWORD|TOKEN|_KEY|DATABASE_URL|SMTP_URL)\b/i);
      }
    }
    for (const ignored of [
      ".env",
      ".env.*",
      ".data",
      "node_modules",
      ".git",
      "test-results",
      ".next",
      "platform/db/generated",
    ]) {
      expect(dockerignore, ignored).toContain(ignored);
    }
  });
});
