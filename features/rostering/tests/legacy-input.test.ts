import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLegacyExport } from "@/features/rostering/shared/legacy-format";
import { readJsonFile } from "@/features/rostering/server/legacy-json-file";

/**
 * A legacy export is untrusted input (docs/adr/0037-legacy-import-limits.md).
 * Malformed JSON is reported by position, never by quoting the text (which
 * holds clear-text passwords); nesting and size are bounded;
 * `__proto__`, `constructor` and `prototype` are never read as data.
 */
const SECRET = "Sup3rSecret-Kiwi-7731";
/** Every piece of the secret of 4 characters or more. */
const pieces = Array.from({ length: SECRET.length - 3 }, (_, i) => SECRET.slice(i, i + 4));
const dir = mkdtempSync(path.join(tmpdir(), "legacy-input-"));
const fileWith = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const pad = "x".repeat(300);

describe("legacy export files", () => {
  const broken = [
    `{"users":{"u1":{"password": ${SECRET}}}}`,
    `{"pad":"${pad}","schools":{"s1":{"students":{"u1":{"password": ${SECRET}}}}},"more":"${pad}"}`,
    `{"users":{"u1":{"password":"${SECRET}" x}}}`,
    `{"users":{"u1":{"password":"${SECRET}`,
    `${SECRET}`,
    `{"users":{"u1":{"password":"${SECRET}\u0001"}}}`,
  ];
  it.each(broken.map((text, i) => [i, text]))(
    "malformed JSON (%i) is refused by the kind of error and where, quoting no part of a password",
    async (i, text) => {
      const read = await readJsonFile(fileWith(`broken-${i}.json`, text as string), "export");
      expect(read.ok).toBe(false);
      const printed = JSON.stringify(read);
      expect(printed).toMatch(
        /not valid JSON \((Unexpected|Expected|Bad|Unterminated)[^)]* at (line \d+, column \d+|position not reported)\)/,
      );
      for (const piece of pieces) expect(printed).not.toContain(piece);
    },
  );

  it("a file past the size limit is refused before it is read", async () => {
    const read = await readJsonFile(fileWith("big.json", `{"users":{},"pad":"${"y".repeat(2000)}"}`), "export", {
      maxBytes: 1000,
    });
    expect(read).toEqual({
      ok: false,
      problems: [
        { path: expect.stringContaining("big.json"), message: expect.stringMatching(/larger than the limit/) },
      ],
    });
    expect((await readJsonFile(fileWith("small.json", `{"users":{}}`), "export", { maxBytes: 1000 })).ok).toBe(true);
  });

  it("nesting past the depth limit is refused with the path, not a crash (the reader recurses)", async () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const json = JSON.parse(
      `{"users":{"u1":{"role":"student","groupType":"school","groupId":"s1","email":${deep}}}}`,
    ) as unknown;
    const read = readLegacyExport(json);
    expect(read).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringMatching(/nested deeper than \d+ levels/) }],
    });
  });
});

describe("__proto__, constructor and prototype are never data", () => {
  const school = { s1: { name: "一小", students: {} } };
  it("a users document's fields under __proto__ do not make a user", () => {
    const users = JSON.parse(
      '{"u1": {"__proto__": {"role": "manager", "groupType": "academy", "groupId": "a1"}, "email": "u1@x.example"}}',
    ) as unknown;
    const read = readLegacyExport({ users, schools: school });
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).toContain("users/u1");
  });

  it("a password or name under __proto__ (plain or inside the export tools' wrapper) is not read", () => {
    const profile = JSON.parse(
      '{"__proto__": {"password": "proto-pass", "name": "proto-name"}, "nickName": "n"}',
    ) as unknown;
    const wrapped = JSON.parse(
      '{"__datatype__": "map", "value": {"__proto__": {"password": "proto-pass-2"}, "nickName": "m"}}',
    ) as unknown;
    const read = readLegacyExport({
      users: {
        u1: { role: "student", groupType: "school", groupId: "s1" },
        u2: { role: "student", groupType: "school", groupId: "s1" },
      },
      schools: { s1: { name: "一小", students: { u1: profile, u2: wrapped } } },
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const docs = read.data.schools.get("s1")!.members.get("student")!;
    expect([docs.get("u1"), docs.get("u2")].map((d) => [d?.password, d?.name, d?.nickName])).toEqual([
      [null, null, "n"],
      [null, null, "m"],
    ]);
  });

  it.each(["__proto__", "constructor", "prototype"])("a document keyed %s is refused, not imported", (key) => {
    const users = JSON.parse(
      `{"${key}": {"role": "student", "groupType": "school", "groupId": "s1", "email": "k@x.example"}}`,
    ) as unknown;
    const read = readLegacyExport({ users, schools: school });
    expect(read).toMatchObject({
      ok: false,
      problems: [{ path: `users/${key}`, message: expect.stringContaining("reserved") }],
    });
  });

  it("a collection named constructor or __proto__ at the top is not read as users or schools", () => {
    const root = JSON.parse(
      '{"__proto__": {"users": {"u1": {"role": "student", "groupType": "school", "groupId": "s1"}}}}',
    ) as unknown;
    expect(readLegacyExport(root)).toMatchObject({
      ok: false,
      problems: [{ path: "users", message: expect.stringContaining("missing") }],
    });
  });
});
