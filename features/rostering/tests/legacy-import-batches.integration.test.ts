import { describe, expect, it } from "vitest";
import { readLegacyExport } from "@/features/rostering/shared/legacy-format";
import { runImport } from "@/features/rostering/server/legacy-import";
import { freshDatabase, TEST_SIGNIN_CODE_KEY } from "../../../tests/support/helpers";
import { generateExport } from "../../../tests/fixtures/legacy-export";

/**
 * An export of any size is written in bounded batches, each its own
 * transaction, with progress; a run cut short leaves whole batches and the
 * next run resumes after them, importing nobody twice.
 */
function withoutPasswords(count: number, prefix: string) {
  const { data, map } = generateExport(count, { prefix });
  // hashing is measured elsewhere; here the batches are
  for (const groups of [data.schools, data.academies]) {
    for (const group of Object.values(groups))
      for (const members of Object.values(group))
        for (const p of Object.values(members)) delete (p as { password?: string }).password;
  }
  const read = readLegacyExport(data);
  if (!read.ok) throw new Error(JSON.stringify(read.problems.slice(0, 3)));
  return { data: read.data, schoolAcademy: new Map(Object.entries(map)) };
}

describe("legacy import in batches", () => {
  const database = freshDatabase("legacy_batches");

  it("commits each batch on its own: a crash after the third leaves exactly those people, and a re-run resumes without duplicates", async () => {
    const { data, schoolAcademy } = withoutPasswords(1200, "bat");
    const options = { dryRun: false, signinCodeKey: TEST_SIGNIN_CODE_KEY, schoolAcademy, batchSize: 100 };
    const lines: string[] = [];
    const crashed = runImport(database.prisma, data, {
      ...options,
      onProgress: (phase, done, total) => phase === "writing" && lines.push(`${done}/${total}`),
      onBatchWritten: (batch) => {
        if (batch === 3) throw new Error("power cut after batch 3");
      },
    });
    await expect(crashed).rejects.toThrow("power cut after batch 3");
    // academies and schools in their own transaction, then three batches of 100
    expect(await database.prisma.user.count()).toBe(300);
    expect(await database.prisma.school.count()).toBe(5);
    expect(await database.prisma.legacyRecord.count({ where: { kind: "user" } })).toBe(300);
    expect(lines).toEqual(["7/1207", "107/1207", "207/1207", "307/1207"]);

    const resumed = await runImport(database.prisma, data, { ...options, onBatchWritten: undefined });
    expect(resumed.ok && resumed.counts.users).toEqual({ created: 900, updated: 0, unchanged: 300, skipped: 0 });
    expect(await database.prisma.user.count()).toBe(1200);
    expect(
      await database.prisma.user.groupBy({ by: ["legacyId"], having: { legacyId: { _count: { gt: 1 } } } }),
    ).toEqual([]);
    expect(await database.prisma.signinCode.count()).toBe(
      await database.prisma.user.count({ where: { role: "student" } }),
    );
    const audit = await database.prisma.auditLog.findFirstOrThrow({
      where: { action: "legacy.import" },
      orderBy: { at: "desc" },
    });
    expect(audit.meta).toMatchObject({ batches: 12 });
  });

  it("10,000 people in batches of 2,000 within CI's time", async () => {
    const { data, schoolAcademy } = withoutPasswords(10_000, "big");
    const started = Date.now();
    const batches: number[] = [];
    const result = await runImport(database.prisma, data, {
      dryRun: false,
      signinCodeKey: TEST_SIGNIN_CODE_KEY,
      schoolAcademy,
      onBatchWritten: (_batch, people) => void batches.push(people),
    });
    expect(result.ok && result.counts.users.created).toBe(10_000);
    expect(batches).toEqual([2000, 2000, 2000, 2000, 2000]);
    expect(Date.now() - started).toBeLessThan(120_000);
  });
});
