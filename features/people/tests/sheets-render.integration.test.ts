import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { env, publicUrl } from "@/platform/env";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { decryptCode } from "@/platform/auth/signin-code-crypto";
import type { SheetJob } from "@/features/people/server/sheets-cards";
import { renderSigninSheets } from "@/features/people/server/sheets-render";
import { createAcademy, createSchool, uniqueTag } from "../../../prisma/seed/factories";
import { childPid, threadPriorities } from "../../../tests/support/child-processes";

// The print renderer of features/people/server/sheets-render.ts as an operator would see it on a Linux server:
// a child process of the server (sheets-worker.mjs) that reads the students, issues their first codes
// and draws the PDF, all of its threads at idle priority, without the server's secrets in its
// environment, leaving no PDF on disk; a renderer that fails or dies fails only its own print.

/** A school of `n` students in one class, the even ones with a code already; the print's job for them. */
async function printJob(n: number): Promise<SheetJob> {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `R${tag}`, nameKana: "あーる" });
  const school = await createSchool(db(), {
    academyId: academy.id,
    name: `描画${tag}中学校`,
    nameKana: "びょうがちゅうがっこう",
  });
  const ids = Array.from({ length: n }, () => crypto.randomUUID());
  await db().user.createMany({
    data: ids.map((id, i) => ({
      id,
      role: "student" as const,
      groupType: "school" as const,
      schoolId: school.id,
      name: `生徒 ${i + 1}`,
    })),
  });
  await db().studentDetail.createMany({
    data: ids.map((userId, i) => ({ userId, grade: 1, className: "2", number: i + 1 })),
  });
  const { sealNewCode } = await import("@/platform/auth/signin-code-crypto");
  await db().signinCode.createMany({
    data: ids
      .filter((_, i) => i % 2 === 0)
      .map((userId) => ({ userId, ...sealNewCode(env().SIGNIN_CODE_KEY), code: undefined })),
  });
  const { DATABASE_URL, DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, SIGNIN_CODE_KEY } = env();
  return {
    schoolId: school.id as AuthorizedSchoolId,
    ids,
    lang: "ja",
    origin: publicUrl(),
    key: SIGNIN_CODE_KEY,
    database: {
      url: DATABASE_URL,
      connectMs: DB_CONNECT_TIMEOUT_MS,
      statementMs: DB_STATEMENT_TIMEOUT_MS,
      pooled: false,
    },
  };
}

/** The live codes of these students. */
async function codesOf(ids: string[]): Promise<Map<string, string>> {
  const rows = await db().signinCode.findMany({
    where: { userId: { in: ids }, revokedAt: null },
    select: { userId: true, codeEncrypted: true },
  });
  return new Map(rows.map((r) => [r.userId, decryptCode(r.codeEncrypted, env().SIGNIN_CODE_KEY)]));
}

async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** The directory a renderer writes its PDFs in (its first argument). */
function dirOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).at(-1)!;
}

/** The renderer child of this process, if one runs. */
const rendererPid = () => childPid("sheets-worker.mjs");

const isPdf = (pdf: Buffer) =>
  pdf.subarray(0, 5).toString("latin1") === "%PDF-" && pdf.subarray(-8).toString("latin1").includes("%%EOF");

describe.runIf(process.platform === "linux")("sign-in sheets made in a child process at idle priority", () => {
  it("a print comes back whole with every student's card, first codes issued once, from a child whose every thread runs at idle priority, with no secrets in its environment and no PDF left on disk", async () => {
    const job = await printJob(250);
    const pdf = await renderSigninSheets(job);
    expect(pdf).toMatchObject({ cards: 250, issued: 125 });
    const bytes = await bytesOf(pdf.body);
    expect(isPdf(bytes)).toBe(true);
    expect(bytes.byteLength).toBe(pdf.bytes);
    const dir = dirOf(rendererPid()!);
    expect(dir.startsWith(os.tmpdir())).toBe(true);
    expect(readdirSync(dir)).toEqual([]); // streamed from a file already removed
    // every student has a live code now, and printing again shows the same ones (none issued)
    const codes = await codesOf(job.ids);
    expect(codes.size).toBe(250);
    const again = await renderSigninSheets(job);
    expect(again).toMatchObject({ cards: 250, issued: 0 });
    await bytesOf(again.body);
    expect(await codesOf(job.ids)).toEqual(codes);

    const pid = rendererPid(); // kept for the next print
    expect(pid).toBeDefined();
    const threads = threadPriorities(pid!);
    expect(threads.length).toBeGreaterThan(1); // the garbage collector's and libuv's threads too
    expect(threads.every((t) => t.policy === 5 && t.nice === 19)).toBe(true);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environ.some((v) => /^(AUTH_SECRET|DATABASE_URL|SIGNIN_CODE_KEY|SMTP_\w+|METRICS_TOKEN)=/.test(v))).toBe(
      false,
    );
    expect(process.env.DATABASE_URL).toBeTruthy(); // (the server's own environment has them)
  });

  it("a print of another school's students makes no card of them", async () => {
    const job = await printJob(4);
    const other = await printJob(3);
    const pdf = await renderSigninSheets({ ...job, ids: [...job.ids, ...other.ids] });
    expect(pdf).toMatchObject({ cards: 4, issued: 2 });
    await bytesOf(pdf.body);
    expect((await codesOf(other.ids)).size).toBe(2); // nobody of the other school was given a code
  });

  it("a print whose students cannot be read (the database away) fails, and the next print is whole", async () => {
    const job = await printJob(8);
    const away = {
      ...job,
      database: { ...job.database, url: "postgresql://nobody:nothing@127.0.0.1:9/none", connectMs: 1_000 },
    };
    await expect(renderSigninSheets(away)).rejects.toThrow(/sign-in sheets/);
    const next = await renderSigninSheets(job);
    expect(isPdf(await bytesOf(next.body))).toBe(true);
  });

  it("a renderer that dies fails only the print it had; the next print starts a new one and its directory goes", async () => {
    const small = await printJob(8);
    await bytesOf((await renderSigninSheets(small)).body);
    const first = rendererPid();
    expect(first).toBeDefined();
    const firstDir = dirOf(first!);
    const printing = renderSigninSheets(await printJob(400));
    await new Promise((r) => setTimeout(r, 200));
    process.kill(first!, "SIGKILL");
    await expect(printing).rejects.toThrow(/renderer exited|sign-in sheets/);

    const again = await renderSigninSheets(small);
    expect(isPdf(await bytesOf(again.body))).toBe(true);
    const second = rendererPid();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    await expect.poll(() => existsSync(firstDir)).toBe(false); // the dead one's directory is gone
  });
});
