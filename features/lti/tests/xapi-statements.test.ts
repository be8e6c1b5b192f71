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
  scene: fc.option(
    fc.record({ id: fc.uuid(), position: fc.nat(200), curriculumCode: fc.option(fc.stringMatching(/^[0-9]{16}$/)) }),
    { nil: undefined },
  ),
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

  it("carries the 学習指導要領コード as a context extension: the scene's, else the activity's; none when neither is set", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const extensions = (buildStatement(f).context as { extensions?: Record<string, unknown> }).extensions ?? {};
        const code = f.scene?.curriculumCode ?? f.activity.curriculumCode ?? undefined;
        expect(extensions[`${f.base}/xapi/extensions/curriculum-code`]).toBe(code);
      }),
    );
    const base = "https://manabiya.example.jp";
    const statement = buildStatement({
      id: "6f1c1f52-33a4-4a57-9d3b-1f0b6c1e2a10",
      verb: "answered",
      timestamp: "2026-11-29T01:02:03.000Z",
      base,
      academyId: "0b0e5d36-0f84-4a43-9a24-7c1b0b8f0d11",
      person: { sourcedId: "s1" },
      activity: { id: "a", title: "t", curriculumCode: "8260243111200000" },
      scene: { id: "b", position: 0, curriculumCode: "8260243111300000" },
      registration: "9a0e8b9e-3c1e-4f0a-8d5e-0f6a2b7c9d10",
    });
    expect(statement.context).toMatchObject({
      extensions: { [`${base}/xapi/extensions/curriculum-code`]: "8260243111300000" },
    });
    expect(validateStatement(JSON.parse(JSON.stringify(statement)))).toEqual([]);
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
