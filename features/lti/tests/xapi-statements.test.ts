/**
 * Every xAPI statement Manabiya makes (features/lti/shared/xapi.ts) is a valid xAPI 1.0.3 statement, as Learning
 * Locker's conformance-tested validator (@learninglocker/xapi-validation) judges it, whatever the answer, the names
 * and the result: a property over generated facts (fast-check). The actor is the account alone unless names are shared.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import validateStatement from "@learninglocker/xapi-validation";
import { buildStatement, responseText, type StatementFacts } from "@/features/lti/shared/xapi";

const facts: fc.Arbitrary<StatementFacts> = fc.record({
  id: fc.uuid(),
  verb: fc.constantFrom("answered", "initialized", "completed"),
  timestamp: fc
    .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  base: fc.constantFrom("https://manabiya.example.jp", "http://localhost:3000"),
  academyId: fc.uuid(),
  person: fc.record({
    sourcedId: fc.string({ minLength: 1, maxLength: 40 }),
    name: fc.option(fc.string({ minLength: 1 })),
  }),
  activity: fc.record({
    id: fc.uuid(),
    title: fc.string(),
    curriculumCode: fc.option(fc.stringMatching(/^[0-9]{16}$/)),
  }),
  scene: fc.option(fc.record({ id: fc.uuid(), position: fc.nat(200) }), { nil: undefined }),
  registration: fc.uuid(),
  sessionId: fc.option(fc.uuid()),
  className: fc.option(fc.string({ minLength: 1, maxLength: 20 })),
  result: fc.option(
    fc
      .record({
        response: fc.option(fc.jsonValue().map(responseText), { nil: undefined }),
        success: fc.option(fc.boolean(), { nil: undefined }),
        completion: fc.option(fc.boolean(), { nil: undefined }),
        total: fc.integer({ min: 1, max: 50 }),
      })
      .chain((r) => fc.nat(r.total).map((correct) => ({ ...r, correct }))),
    { nil: undefined },
  ),
});

describe("xAPI statements", () => {
  it("every statement made from generated answers validates as xAPI 1.0.3", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const statement = buildStatement(f);
        expect(validateStatement(JSON.parse(JSON.stringify(statement)))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("the actor is the academy's account named by the sourcedId, with no name unless the academy shares it", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const actor = buildStatement({ ...f, person: { sourcedId: f.person.sourcedId } }).actor;
        expect(actor).toEqual({
          objectType: "Agent",
          account: { homePage: `${f.base}/xapi/academies/${f.academyId}`, name: f.person.sourcedId },
        });
      }),
    );
  });

  it("a statement the validator refuses is reported (the check is not a no-op)", () => {
    const statement = buildStatement({
      id: "not-a-uuid",
      verb: "answered",
      timestamp: "yesterday",
      base: "https://manabiya.example.jp",
      academyId: "a",
      person: { sourcedId: "s1" },
      activity: { id: "x", title: "t" },
      registration: "r",
    });
    expect(validateStatement(statement).length).toBeGreaterThan(0);
  });
});
