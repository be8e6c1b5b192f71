import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/platform/db/client";
import { runAdmin } from "../../tests/support/admin-run";
import { seedSchool, sql, tableRows } from "../../tests/support/backup-helpers";
import { dropDatabase, emptyDatabase, freshDatabase } from "../../tests/support/helpers";

/** `npm run admin -- backup FILE` / `restore FILE` as an operator runs them: exit codes, messages, audit entries. */
const source = freshDatabase("backup_cli");
let dir: string;
let target: { name: string; url: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "manabiya-backup-cli-"));
  const prisma = createPrismaClient(source.url, 2);
  await seedSchool(prisma, 2);
  await prisma.$disconnect();
  target = await emptyDatabase("backup_cli_target");
}, 120_000);
afterAll(async () => {
  if (target) await dropDatabase(target.name);
  await rm(dir, { recursive: true, force: true });
});

describe("npm run admin -- backup / restore", () => {
  it("backs up (0600, progress on stderr, audited), refuses to overwrite, restores into an empty database only", async () => {
    const file = path.join(dir, "school.backup");
    const made = await runAdmin(source.url, ["backup", file]);
    expect(made).toMatchObject({ code: 0, err: expect.stringContaining("backup: responses") });
    expect(made.out).toContain(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const audited = await sql<{ meta: { via: string; file: string } }>(
      source.url,
      `select meta from audit_logs where action = 'admin.backup'`,
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]!.meta).toMatchObject({ via: "cli", file });

    const again = await runAdmin(source.url, ["backup", file]);
    expect(again).toMatchObject({ code: 1, err: expect.stringContaining("--force") });
    expect((await runAdmin(source.url, ["backup", file, "--force"])).code).toBe(0);

    const before = await tableRows(source.url);
    const full = await runAdmin(source.url, ["restore", file]);
    expect(full).toMatchObject({ code: 1, err: expect.stringContaining("not empty") });
    expect(full.err).toContain("createdb");
    expect(await tableRows(source.url)).toEqual(before);

    const restored = await runAdmin(target.url, ["restore", file]);
    expect(restored).toMatchObject({ code: 0, err: expect.stringContaining("restore: responses") });
    const after = await tableRows(target.url);
    // the forced backup's own audit entry came after its snapshot; the restore adds its entry
    const withoutCli = (rows: Record<string, string[]>) => ({
      ...rows,
      audit_logs: rows.audit_logs!.filter((r) => !/admin\.(backup|restore)/.test(r)),
    });
    expect(withoutCli(after)).toEqual(withoutCli(before));
    expect(after.audit_logs!.filter((r) => r.includes("admin.backup"))).toHaveLength(1);
    expect(after.audit_logs!.filter((r) => r.includes("admin.restore"))).toHaveLength(1);
  }, 120_000);

  it("refuses a FILE it cannot write (a folder that does not exist): exit 1 with a message, no crash", async () => {
    const nowhere = path.join(dir, "no-such-folder", "school.backup");
    const made = await runAdmin(source.url, ["backup", nowhere]);
    expect(made).toMatchObject({ code: 1, err: expect.stringContaining(`cannot write ${nowhere}`) });
    expect(made.err).not.toMatch(/Unhandled|node:events|\n\s+at /);
  }, 120_000);

  it("refuses a damaged or missing file (exit 1) and a missing FILE (exit 2, usage naming what the file holds)", async () => {
    const bad = path.join(dir, "bad.backup");
    await writeFile(bad, "not a backup");
    const other = await emptyDatabase("backup_cli_bad");
    try {
      expect(await runAdmin(other.url, ["restore", bad])).toMatchObject({
        code: 1,
        err: expect.stringContaining("not a Manabiya backup"),
      });
      expect(await runAdmin(other.url, ["restore", path.join(dir, "missing.backup")])).toMatchObject({
        code: 1,
        err: expect.stringContaining("cannot read"),
      });
    } finally {
      await dropDatabase(other.name);
    }
    const usage = await runAdmin(source.url, ["backup"]);
    expect(usage.code).toBe(2);
    const help = await runAdmin(source.url, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("password hashes");
  }, 120_000);
});
