import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DbUser, RosterState } from "@/features/rostering/server/queries";
import { computePlan } from "@/features/rostering/server/plan-core";
import { rosterSet } from "../../../tests/support/roster-fixture";

/**
 * #22: the plan links a hand-added account to a new roster person only when the e-mail is the
 * account's, the account is of the same school and academy, has no sourcedId and has the same role.
 * Any other account with that e-mail is never linked, whatever the set says.
 */
const ACADEMY = "a0000000-0000-4000-8000-000000000001";
const SCHOOL = "50000000-0000-4000-8000-000000000001";
const OTHER_SCHOOL = "50000000-0000-4000-8000-000000000002";
const EMAIL = "hana@school.example";

function stateWith(owner: DbUser): RosterState {
  return {
    academyId: ACADEMY,
    schools: [
      { id: SCHOOL, name: "東中学校", sourcedId: null },
      { id: OTHER_SCHOOL, name: "西中学校", sourcedId: null },
    ],
    foreignSchools: new Set(),
    classes: [],
    users: new Map(),
    sourcedOf: new Map(),
    emailOwners: new Map([[EMAIL, { id: owner.id, sourcedId: owner.sourcedId }]]),
    unsourcedByEmail: owner.sourcedId === null ? new Map([[EMAIL, owner]]) : new Map(),
    umiOwners: new Map(),
    seats: new Map(),
  };
}

const owner = fc.record({
  role: fc.constantFrom("student", "teacher", "manager") as fc.Arbitrary<DbUser["role"]>,
  schoolId: fc.constantFrom(SCHOOL, OTHER_SCHOOL, null),
  academyId: fc.constantFrom(ACADEMY, "a0000000-0000-4000-8000-000000000009"),
  sourcedId: fc.constantFrom(null, "older-id"),
});

describe("roster plan: linking hand-added accounts", () => {
  it("links only an account of the same school and academy, without a sourcedId, of the same role; anything else is refused", () => {
    fc.assert(
      fc.property(owner, fc.constantFrom("student", "teacher") as fc.Arbitrary<"student" | "teacher">, (o, rowRole) => {
        const account: DbUser = {
          id: "u0000000-0000-4000-8000-000000000001",
          ...o,
          email: EMAIL,
          name: "山田 花",
          nameKana: null,
          familyName: null,
          givenName: null,
          kanaFamilyName: null,
          kanaGivenName: null,
          userMasterIdentifier: null,
          disabled: false,
          grade: null,
          className: null,
          number: null,
        };
        const person = { sourcedId: "new-person", family: "山田", given: "花子", email: "Hana@School.example" };
        const set = rosterSet([
          {
            sourcedId: "east",
            name: "東中学校",
            classes: [],
            students: rowRole === "student" ? [person] : [],
            teachers: rowRole === "teacher" ? [person] : [],
          },
        ]);
        const { plan, work } = computePlan(stateWith(account), set);
        const links = work.flatMap((w) => w.link);
        const linkable =
          o.schoolId === SCHOOL && o.academyId === ACADEMY && o.sourcedId === null && o.role !== "manager";
        if (linkable && o.role === rowRole) {
          expect(plan.problems).toEqual([]);
          expect(links).toEqual([
            {
              id: account.id,
              target: expect.objectContaining({ sourcedId: "new-person", email: EMAIL, role: rowRole }),
            },
          ]);
          expect(plan.schools[0]![rowRole === "student" ? "students" : "teachers"]).toMatchObject({
            create: 0,
            link: 1,
          });
        } else {
          expect(links).toEqual([]);
          expect(work.flatMap((w) => w.create)).toEqual([]);
          expect(plan.problems.map((p) => [p.file, p.column, p.code])).toEqual([
            ["users.csv", "email", linkable ? "linkRoleMismatch" : "emailTaken"],
          ]);
        }
      }),
    );
  });
});
