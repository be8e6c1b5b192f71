import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeMode } from "@/features/activities/server/commands";
import { createAcademy as adminCreateAcademy } from "@/features/people/server/admin-commands";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { requestPasswordReset } from "@/platform/auth/password-reset";
import { db } from "@/platform/db";
import { endSession, startSession } from "@/features/play/server/session-commands";
import { createLogger } from "@/platform/ops/log";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

// a mail server that refuses every connection (nothing listens on port 1): the send fails
process.env.SMTP_URL = "smtp://127.0.0.1:1";

/** The process's logger (platform/ops/log.ts keeps it on globalThis) replaced by one that keeps its lines. */
const lines: Record<string, unknown>[] = [];
const raw: string[] = [];
(globalThis as { manabiyaLog?: unknown }).manabiyaLog = createLogger(
  "debug",
  new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  }),
);
const events = (name: string) => lines.filter((l) => l.event === name);

const PASSWORD = "correct horse battery";
const ip = "203.0.113.9";

describe("one log line per sign-in failure, mode change, live session, admin action and failed mail", () => {
  let teacher: { id: string; email: string | null };
  let schoolId: AuthorizedSchoolId;
  beforeAll(async () => {
    await syncTemplates(db(), await readTemplateFiles());
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `L${tag}`, nameKana: "える" });
    schoolId = (await createSchool(db(), { academyId: academy.id, name: `L${tag}`, nameKana: "える" }))
      .id as AuthorizedSchoolId;
    teacher = await createUser(db(), {
      role: "teacher",
      email: `log-teacher-${tag}@example.jp`,
      password: PASSWORD,
      schoolId,
    });
  });
  beforeEach(() => {
    lines.length = 0;
    raw.length = 0;
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("sign-in failures: method, reason, the user id when known, never the typed e-mail", async () => {
    const unknown = `nobody-${uniqueTag()}@example.jp`;
    await checkPassword({ email: teacher.email, password: "typed-Wr0ng-pass" }, ip);
    await checkPassword({ email: unknown, password: "typed-Wr0ng-pass" }, ip);
    await checkPassword({ email: "not-an-address", password: "x" }, ip);
    await checkCode("not-a-code", ip);
    expect(events("signin.password.failure")).toEqual([
      expect.objectContaining({ level: "info", method: "password", reason: "wrongPassword", userId: teacher.id }),
      expect.objectContaining({ method: "password", reason: "userNotFound" }),
      expect.objectContaining({ method: "password", reason: "invalidEmail" }),
    ]);
    expect(events("signin.password.failure")[1]!.userId).toBeUndefined();
    expect(events("signin.code.failure")).toEqual([expect.objectContaining({ method: "code", reason: "malformed" })]);
    const text = raw.join("\n");
    for (const secret of [teacher.email!, unknown, "not-an-address", "typed-Wr0ng-pass", "not-a-code"])
      expect(text).not.toContain(secret);
  });

  it("mode changes and the live session's start and end, by user id", async () => {
    const activity = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId,
      mode: "standby",
    });
    const ctx = { schoolId, actorId: teacher.id };
    expect((await changeMode(ctx, activity.id, "self")).ok).toBe(true);
    expect((await startSession(ctx, activity.id)).ok).toBe(true);
    expect((await endSession(ctx, activity.id)).ok).toBe(true);
    expect(events("activity.mode")).toEqual([
      expect.objectContaining({ userId: teacher.id, targetId: activity.id, from: "standby", to: "self" }),
    ]);
    expect(events("guide.start")).toEqual([expect.objectContaining({ userId: teacher.id, targetId: activity.id })]);
    expect(events("guide.end")).toEqual([expect.objectContaining({ userId: teacher.id, targetId: activity.id })]);
  });

  it("an admin action (npm run admin)", async () => {
    const academy = await adminCreateAcademy({ name: `管理${uniqueTag()}`, nameKana: "かんり" });
    expect(events("admin.academy.create")).toEqual([expect.objectContaining({ level: "info", targetId: academy.id })]);
  });

  it("a reset mail that cannot be sent: an error line with the user id and the cause, and the request ends as for an unknown account", async () => {
    await expect(
      requestPasswordReset(teacher.email!, (url) => ({ subject: "reset", text: `open ${url}` })),
    ).resolves.toBeUndefined();
    const failed = events("mail.failed");
    expect(failed).toEqual([expect.objectContaining({ level: "error", userId: teacher.id })]);
    expect((failed[0]!.err as { message: string }).message).toMatch(/ECONNREFUSED|connect/i);
    expect(raw.join("\n")).not.toContain(teacher.email!);
    expect(raw.join("\n")).not.toContain("token=");
  });
});
