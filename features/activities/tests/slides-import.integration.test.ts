import type { ChildProcess } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/platform/db";
import { importSlidesRoute } from "@/features/activities/server/slides-route";
import type { SlidesLine } from "@/features/scenes/shared/slide-limits";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { childPid, descendants } from "../../../tests/support/child-processes";
import { craftPdf } from "../../../tests/support/pdf-craft";
import { until } from "../../../tests/support/live-stream";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

const HOST = "school.example";

/** The editor's upload of `bytes` as the PDF for `activityId` at `version`; its status and the lines it streamed. */
async function send(cookie: string, activityId: string, version: number, bytes: Uint8Array, as = "info") {
  session.cookie = cookie;
  const query = new URLSearchParams({ version: String(version), name: "二次関数.pdf", as });
  const url = `https://${HOST}/api/v1/activities/${activityId}/slides?${query}`;
  const reply = await importSlidesRoute(
    new NextRequest(url, {
      method: "POST",
      body: new Uint8Array(bytes),
      headers: { host: HOST, origin: `https://${HOST}`, "content-type": "application/pdf", cookie },
    }),
    activityId,
  );
  const text = await reply.text();
  const lines = reply.headers.get("content-type")?.startsWith("application/x-ndjson")
    ? text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as SlidesLine)
    : [JSON.parse(text) as SlidesLine];
  return { status: reply.status, lines, last: lines.at(-1) };
}

describe("slides brought in from a PDF", () => {
  const cookies = { teacher: "", other: "", student: "" };
  let school = "";
  let otherSchool = "";

  const activity = async (schoolId = school) => {
    const a = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId });
    return (await db().activity.findUniqueOrThrow({ where: { id: a.id }, select: { id: true, version: true } }))!;
  };
  const scenesOf = (activityId: string) =>
    db().activityScene.findMany({
      where: { activityId },
      orderBy: { position: "asc" },
      select: { type: true, content: true, position: true },
    });

  beforeAll(async () => {
    await syncTemplates(db(), await readTemplateFiles());
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `スライド学園${tag}`, nameKana: "すらいど" });
    const a = await createSchool(db(), { academyId: academy.id, name: `スライド校${tag}`, nameKana: "すらいどこう" });
    const b = await createSchool(db(), { academyId: academy.id, name: `別校${tag}`, nameKana: "べつこう" });
    [school, otherSchool] = [a.id, b.id];
    const teacher = await createUser(db(), { role: "teacher", email: `sl-${tag}@t.example`, schoolId: a.id });
    const other = await createUser(db(), { role: "teacher", email: `sl-o-${tag}@t.example`, schoolId: b.id });
    const student = await createUser(db(), { role: "student", email: `sl-s-${tag}@t.example`, schoolId: a.id });
    cookies.teacher = await sessionCookieOf(teacher.id, "teacher", 0);
    cookies.other = await sessionCookieOf(other.id, "teacher", 0);
    cookies.student = await sessionCookieOf(student.id, "student", 0);
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("makes each page a scene with the page as its image, after the last scene, reporting every page as it goes", async () => {
    const { id, version } = await activity();
    const before = await scenesOf(id);
    const reply = await send(cookies.teacher, id, version, craftPdf({ pages: 3 }));
    expect(reply.status).toBe(200);
    expect(reply.lines).toEqual([
      { page: 1, pages: 3 },
      { page: 2, pages: 3 },
      { page: 3, pages: 3 },
      { ok: true, data: { version: version + 1, added: 3 } },
    ]);
    const after = await scenesOf(id);
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length);
    expect(added.map((s) => s.type)).toEqual(["info", "info", "info"]);
    expect(added.map((s) => (s.content as { prompt: string }).prompt)).toEqual([
      "二次関数（1ページ|目(め)）",
      "二次関数（2ページ|目(め)）",
      "二次関数（3ページ|目(め)）",
    ]);
    expect(added.map((s) => (s.content as { image: { alt: string } }).image.alt)).toEqual([
      "二次関数（1ページ目）",
      "二次関数（2ページ目）",
      "二次関数（3ページ目）",
    ]);
    const images = added.map((s) => (s.content as { image: { id: string; width: number; height: number } }).image);
    expect(images.every((i) => i.width === 1600 && i.height === 1200)).toBe(true);
    const stored = await db().image.findMany({
      where: { id: { in: images.map((i) => i.id) } },
      select: { schoolId: true, contentType: true },
    });
    expect(stored).toEqual(Array(3).fill({ schoolId: school, contentType: "image/jpeg" }));
  });

  it("draws a PDF of more than nine pages whole: every page once, each its own picture", async () => {
    const { id, version } = await activity();
    const reply = await send(cookies.teacher, id, version, craftPdf({ pages: 12 }));
    expect(reply.lines.slice(0, -1)).toEqual(Array.from({ length: 12 }, (_, i) => ({ page: i + 1, pages: 12 })));
    expect(reply.last).toEqual({ ok: true, data: { version: version + 1, added: 12 } });
    const added = (await scenesOf(id)).slice(-12);
    const ids = added.map((s) => (s.content as { image: { id: string } }).image.id);
    expect(new Set(ids).size).toBe(12);
    expect((added[11]!.content as { prompt: string }).prompt).toBe("二次関数（12ページ|目(め)）");
  });

  it("starts poppler's programs from the command runner, never from the server's process, and gives them none of the server's secrets", async () => {
    const { id, version } = await activity();
    // what this process itself starts (a fork of the server holds its event loop: platform/ops/command-runner.ts)
    const started: string[] = [];
    const spawned = (message: unknown) => {
      const child = (message as { process: ChildProcess }).process;
      started.push(child.spawnargs.join(" "));
    };
    // poppler's programs as they run, below the runner: their parent and environment
    const seen = new Map<number, { ppid: number; environ: string[] }>();
    const look = setInterval(() => {
      for (const p of descendants())
        if (/pdftoppm|pdfinfo/.test(p.cmdline) && !seen.has(p.pid))
          try {
            const environ = readFileSync(`/proc/${p.pid}/environ`, "utf8").split("\0").filter(Boolean);
            // a program on its way out reads as an empty environment: looked at again on the next round, if still there
            if (environ.length > 0) seen.set(p.pid, { ppid: p.ppid, environ });
          } catch {
            // ended meanwhile
          }
    }, 5);
    subscribe("child_process", spawned);
    try {
      const reply = await send(cookies.teacher, id, version, craftPdf({ pages: 12 }));
      expect(reply.last).toMatchObject({ ok: true });
    } finally {
      unsubscribe("child_process", spawned);
      clearInterval(look);
    }
    expect(started.filter((args) => /pdftoppm|pdfinfo/.test(args))).toEqual([]);
    const runner = childPid("command-runner-child.mjs");
    expect(runner).toBeDefined();
    expect(seen.size).toBeGreaterThanOrEqual(1); // pdftoppm at least (pdfinfo ends within milliseconds)
    for (const { ppid } of seen.values()) expect(ppid).toBe(runner);
    expect(process.env.DATABASE_URL).toBeTruthy(); // the server's own environment has them
    const environs = [
      ...[...seen.values()].map((p) => p.environ),
      readFileSync(`/proc/${runner}/environ`, "utf8").split("\0").filter(Boolean),
    ];
    expect(environs.every((e) => e.some((v) => v.startsWith("PATH=")))).toBe(true);
    for (const environ of environs)
      expect(
        environ.filter((v) => /^(DATABASE_URL|AUTH_SECRET|SIGNIN_CODE_KEY|SMTP_\w+|METRICS_TOKEN)=/.test(v)),
      ).toEqual([]);
  });

  it("the command runner ended mid-import (killed, out of memory): the import failed, not the file, nothing is added, and the next import draws in a new runner", async () => {
    const { id, version } = await activity();
    const before = await scenesOf(id);
    const drawing = () => descendants().find((p) => /pdftoppm/.test(p.cmdline));
    const reply = send(cookies.teacher, id, version, craftPdf({ pages: 30 }));
    await until(() => drawing() !== undefined, "pdftoppm runs", 30_000);
    const runner = childPid("command-runner-child.mjs")!;
    process.kill(runner, "SIGKILL");
    expect((await reply).last).toEqual({ ok: false, problem: "failed" });
    expect(await scenesOf(id)).toEqual(before);

    const again = await send(cookies.teacher, id, version, craftPdf({ pages: 2 }));
    expect(again.last).toMatchObject({ ok: true, data: { added: 2 } });
    expect(childPid("command-runner-child.mjs")).not.toBe(runner);
  });

  it("makes each page a drawing scene written on the page when asked (a worksheet)", async () => {
    const { id, version } = await activity();
    const reply = await send(cookies.teacher, id, version, craftPdf({ pages: 2 }), "drawing");
    expect(reply.last).toEqual({ ok: true, data: { version: version + 1, added: 2 } });
    const added = (await scenesOf(id)).slice(-2);
    expect(added.map((s) => s.type)).toEqual(["drawing", "drawing"]);
    expect(added[1]!.content).toMatchObject({
      prompt: "二次関数（2ページ|目(め)）",
      onImage: true,
      image: { alt: "二次関数（2ページ目）", width: 1600, height: 1200 },
    });
  });

  it("refuses a file that needs a password, is not a PDF, or is damaged, and adds nothing", async () => {
    const { id, version } = await activity();
    const count = (await scenesOf(id)).length;
    const locked = await send(cookies.teacher, id, version, craftPdf({ pages: 2, password: true }));
    expect(locked.last).toEqual({ ok: false, problem: "encrypted" });
    const png = await send(cookies.teacher, id, version, Buffer.from("\x89PNG\r\n\x1a\n0000", "latin1"));
    expect(png).toMatchObject({ status: 415, last: { ok: false, problem: "type" } });
    const damaged = await send(cookies.teacher, id, version, Buffer.from("%PDF-1.4\n garbage garbage", "latin1"));
    expect(damaged.last).toEqual({ ok: false, problem: "unreadable" });
    const empty = await send(cookies.teacher, id, version, new Uint8Array());
    expect(empty.last).toMatchObject({ ok: false });
    const unknownType = await send(cookies.teacher, id, version, craftPdf({ pages: 1 }), "choice");
    expect(unknownType).toMatchObject({ status: 400, last: { ok: false } });
    expect(await scenesOf(id)).toHaveLength(count);
  });

  it("refuses more than 50 pages before drawing any, and a stale version after drawing them", async () => {
    const { id, version } = await activity();
    const count = (await scenesOf(id)).length;
    const many = await send(cookies.teacher, id, version, craftPdf({ pages: 51 }));
    expect(many.lines).toEqual([{ ok: false, problem: "tooManyPages" }]);
    const stale = await send(cookies.teacher, id, version - 1, craftPdf({ pages: 1 }));
    expect(stale.last).toEqual({ ok: false, problem: "conflict" });
    expect(await scenesOf(id)).toHaveLength(count);
  });

  it("is 404 for another school's activity and refused to a student, adding nothing", async () => {
    const theirs = await activity(otherSchool);
    const count = (await scenesOf(theirs.id)).length;
    expect((await send(cookies.teacher, theirs.id, theirs.version, craftPdf({ pages: 1 }))).status).toBe(404);
    const mine = await activity();
    expect((await send(cookies.student, mine.id, mine.version, craftPdf({ pages: 1 }))).status).toBe(403);
    expect(await scenesOf(theirs.id)).toHaveLength(count);
  });
});
