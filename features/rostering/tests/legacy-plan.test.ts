import { describe, expect, it } from "vitest";
import { readLegacyExport } from "@/features/rostering/shared/legacy-format";
import { type Existing, planImport } from "@/features/rostering/server/legacy-plan";

const nothing = (): Existing => ({
  academiesByLegacy: new Map(),
  academiesById: new Map(),
  schoolsByLegacy: new Map(),
  usersByLegacy: new Map(),
  usersByEmail: new Map(),
  records: new Map(),
});

function plan(json: unknown, existing = nothing()) {
  const read = readLegacyExport(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const result = planImport(read.data, existing, { now: new Date(0) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

const user = (role: string, groupId: string, extra: object = {}) => ({
  role,
  groupId,
  groupType: role === "manager" ? "academy" : "school",
  ...extra,
});

describe("legacy export reading and planning", () => {
  it("reads both layouts (export tools' __collections__ and plain nesting) to the same plan", () => {
    const plain = {
      users: { u1: user("student", "s1", { email: "u1@x.example" }), m1: user("manager", "a1") },
      schools: { s1: { name: "一小", students: { u1: { name: "一", password: "p" } } } },
      academies: { a1: { managers: { m1: { name: "管", groupName: "学園" } } } },
    };
    const nested = {
      __collections__: {
        users: {
          u1: { ...user("student", "s1", { email: "U1@x.example" }), __collections__: {} },
          m1: user("manager", "a1"),
        },
        schools: { s1: { name: "一小", __collections__: { students: { u1: { name: "一", password: "p" } } } } },
        academies: { a1: { __collections__: { managers: { m1: { name: "管", groupName: "学園" } } } } },
      },
    };
    const strip = (p: ReturnType<typeof plan>) =>
      p.users.map((u) => ({
        path: u.path,
        action: u.action,
        user: { ...u.user, schoolId: !!u.user.schoolId, academyId: !!u.user.academyId },
        setPassword: u.setPassword,
      }));
    expect(strip(plan(nested))).toEqual(strip(plan(plain)));
    expect(plan(plain).academies[0]).toMatchObject({ path: "academies/a1", name: "学園", action: "create" });
  });

  it("names a group after its members' most common groupName, else by its id (reported)", () => {
    const p = plan({
      users: {
        a: user("teacher", "s1"),
        b: user("teacher", "s1"),
        c: user("teacher", "s1"),
        d: user("teacher", "s2"),
        m: user("manager", "a1"),
      },
      schools: {
        s1: { teachers: { a: { groupName: "北小" }, b: { groupName: "北小学校" }, c: { groupName: "北小学校" } } },
      },
    });
    expect(p.schools.map((s) => [s.legacyId, s.name])).toEqual([
      ["s1", "北小学校"],
      ["s2", "s2"],
    ]);
    expect(p.namedById).toEqual(["academies/a1", "schools/s2"]);
  });

  it("uses the role document of the users document's own collection; others are skipped with the reason", () => {
    const p = plan({
      users: { u1: user("teacher", "s1"), m: user("manager", "a1") },
      schools: { s1: { students: { u1: { name: "生徒としての文書" } }, teachers: { u1: { name: "先生" } } } },
    });
    expect(p.users.find((u) => u.legacyId === "u1")?.user.name).toBe("先生");
    expect(p.skipped).toEqual([
      { path: "schools/s1/students/u1", reason: "not used: users/u1 makes this person a teacher of schools/s1" },
    ]);
  });

  it("accepts a class and number when an export has them, only complete", () => {
    const p = plan({
      users: { a: user("student", "s1"), b: user("student", "s1"), m: user("manager", "a1") },
      schools: { s1: { students: { a: { grade: "3", className: "2", number: 14 }, b: { grade: 3 } } } },
    });
    expect(p.users.filter((u) => u.role === "student").map((u) => u.details)).toEqual([
      { grade: 3, className: "2", number: 14, counterbalanceGroup: null },
      { grade: null, className: null, number: null, counterbalanceGroup: null },
    ]);
  });

  it("refuses values of the wrong type with the document's path", () => {
    const read = readLegacyExport({
      users: { a: user("student", "s1", { email: "not-mail" }) },
      schools: { s1: { students: { a: { password: 1234, number: "x" } } } },
    });
    expect(read.ok === false && read.problems).toEqual([
      { path: "schools/s1/students/a", message: "password must be text" },
      { path: "schools/s1/students/a", message: "number must be a whole number" },
      { path: "users/a", message: "email is not an e-mail address" },
    ]);
  });
});
