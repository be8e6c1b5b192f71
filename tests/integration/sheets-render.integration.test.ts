import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SheetCard } from "@/lib/students/sheets";
import { renderSigninSheets } from "@/lib/students/sheets-render";

// The print renderer of lib/students/sheets-render.ts as an operator would see it on a Linux server:
// a child process of the server (sheets-worker.mjs), all of its threads at idle priority, without
// the server's secrets; a renderer that dies fails only its own print.

const cards = (n: number): SheetCard[] =>
  Array.from({ length: n }, (_, i) => ({ name: `生徒 ${i + 1}`, reading: null, classLine: `1年1組 ${i + 1}`, school: "テスト中学校", url: `https://manabiya.example/q/${"A".repeat(20)}${i}` }));
const texts = () => ({ keepSecret: "このカードはパスワードと同じです。", howTo: "タブレットのカメラで読み取ってください。" });
/** The cards in pieces of 50, as the sheets route makes them. */
async function* inPieces(all: SheetCard[]): AsyncGenerator<SheetCard[]> {
  for (let i = 0; i < all.length; i += 50) yield all.slice(i, i + 50);
}

/** The renderer child of this process, if one runs. */
function rendererPid(): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("sheets-worker.mjs")) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Each thread's scheduling policy (5: SCHED_IDLE) and nice value. */
function threadPriorities(pid: number): { policy: number; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const sched = readFileSync(`/proc/${pid}/task/${tid}/sched`, "utf8");
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return { policy: Number(/^policy\s*:\s*(\d+)/m.exec(sched)?.[1]), nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) };
  });
}

const isPdf = (pdf: Buffer) => pdf.subarray(0, 5).toString("latin1") === "%PDF-" && pdf.subarray(-8).toString("latin1").includes("%%EOF");

describe.runIf(process.platform === "linux")("sign-in sheets rendered in a child process at idle priority", () => {
  it("a print larger than one piece comes back whole, from a child whose every thread runs at idle priority and which has no secrets", async () => {
    const pdf = await renderSigninSheets(inPieces(cards(250)), texts);
    expect(isPdf(pdf)).toBe(true);
    expect(pdf.byteLength).toBeGreaterThan(256 * 1024); // more than one piece of the child's reply

    const pid = rendererPid(); // kept for the next print
    expect(pid).toBeDefined();
    const threads = threadPriorities(pid!);
    expect(threads.length).toBeGreaterThan(1); // the garbage collector's and libuv's threads too
    expect(threads.every((t) => t.policy === 5 && t.nice === 19)).toBe(true);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environ.some((v) => /^(AUTH_SECRET|DATABASE_URL|SIGNIN_CODE_KEY|SMTP_\w+|METRICS_TOKEN)=/.test(v))).toBe(false);
    expect(process.env.DATABASE_URL).toBeTruthy(); // (the server's own environment has them)
  });

  it("a print whose cards cannot be made (the database away) fails, and the next print is whole", async () => {
    async function* failing(): AsyncGenerator<SheetCard[]> {
      yield cards(50);
      throw new Error("the database is away");
    }
    await expect(renderSigninSheets(failing(), texts)).rejects.toThrow("the database is away");
    const next = await renderSigninSheets(inPieces(cards(8)), texts);
    expect(isPdf(next)).toBe(true);
  });

  it("a renderer that dies fails only the print it had; the next print starts a new one", async () => {
    await renderSigninSheets(inPieces(cards(8)), texts);
    const first = rendererPid();
    expect(first).toBeDefined();
    const printing = renderSigninSheets(inPieces(cards(400)), texts);
    process.kill(first!, "SIGKILL");
    await expect(printing).rejects.toThrow(/renderer exited|sign-in sheets/);

    const again = await renderSigninSheets(inPieces(cards(8)), texts);
    expect(isPdf(again)).toBe(true);
    const second = rendererPid();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });
});
