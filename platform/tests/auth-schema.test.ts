import { describe, expect, it } from "vitest";
import { areaOf, homeOf } from "@/platform/auth/roles";
import { safeFromPath, signinInputSchema } from "@/platform/auth/schema";
import { roleSuffixKey } from "@/platform/names/display-name";
import { shownName } from "@/platform/names/person-name";

describe("sign-in input", () => {
  it("lower-cases and trims the e-mail", () => {
    expect(signinInputSchema.parse({ email: "  Teacher@Example.COM ", password: "x" }).email).toBe(
      "teacher@example.com",
    );
  });
  it.each(["", "teacher", "teacher@", "@example.com", "a b@example.com"])("refuses %j", (email) => {
    expect(signinInputSchema.safeParse({ email, password: "x" }).success).toBe(false);
  });
});

describe("safeFromPath (no open redirect)", () => {
  it.each(["/dashboard/teacher/students", "/dashboard/student/home?x=1"])("keeps %s", (p) => {
    expect(safeFromPath(p)).toBe(p);
  });
  it.each([
    "//evil.example",
    "https://evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
    "dashboard",
    "/\u0000x",
    42,
    null,
  ])("drops %j", (p) => {
    expect(safeFromPath(p)).toBeNull();
  });
});

describe("roles", () => {
  it("maps areas and homes", () => {
    expect(areaOf("/dashboard/teacher/activities/edit/1")).toBe("teacher");
    expect(areaOf("/dashboard/manager")).toBe("manager");
    expect(areaOf("/dashboard/studentx")).toBeNull();
    expect(areaOf("/signin")).toBeNull();
    expect(homeOf("student")).toBe("/dashboard/student/home");
  });
});

describe("display name (docs/requirements.md §2)", () => {
  it("prefers the nickname, then the name, else null (guest)", () => {
    expect(shownName({ nickname: "はる", name: "青木 陽翔" })?.base).toBe("はる");
    expect(shownName({ nickname: "  ", name: "青木 陽翔" })?.base).toBe("青木 陽翔");
    expect(shownName({ nickname: null, name: null })).toBeNull();
  });
  it("knows the reading of the name, or of a nickname that is part of it", () => {
    expect(shownName({ name: "佐藤 健一", nameKana: "さとう けんいち" })).toEqual({
      base: "佐藤 健一",
      reading: "さとう けんいち",
    });
    expect(shownName({ nickname: "佐藤", name: "佐藤 健一", nameKana: "さとう けんいち" })).toEqual({
      base: "佐藤",
      reading: "さとう",
    });
    expect(shownName({ nickname: "はるくん", name: "青木 陽翔", nameKana: "あおき はると" })).toEqual({
      base: "はるくん",
      reading: null,
    });
    expect(shownName({ nickname: "陽ちゃん", name: "青木 陽翔", nameKana: "あおき はると" })).toEqual({
      base: "陽ちゃん",
      reading: null,
    });
  });
  it("suffixes teachers and managers only", () => {
    expect(roleSuffixKey("teacher")).toBe("teacherSuffix");
    expect(roleSuffixKey("manager")).toBe("managerSuffix");
    expect(roleSuffixKey("student")).toBeNull();
  });
});
