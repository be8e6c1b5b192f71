/**
 * The xAPI 1.0.3 statements Manabiya makes (features/lti/README.md "Learning records"): pure, browser-safe. The actor
 * is an account {homePage: the academy's home page under AUTH_URL, name: the person's OneRoster sourcedId}, with the
 * person's name only when the academy turned that on; verbs from the ADL vocabulary; the activity and its scenes
 * as stable IRIs under AUTH_URL; the registration one UUID per person and attempt (the live session, or self mode).
 */

export const XAPI_VERSION = "1.0.3";

export const VERBS = {
  answered: { id: "http://adlnet.gov/expapi/verbs/answered", display: { "en-US": "answered", "ja-JP": "回答した" } },
  initialized: {
    id: "http://adlnet.gov/expapi/verbs/initialized",
    display: { "en-US": "initialized", "ja-JP": "開始した" },
  },
  completed: { id: "http://adlnet.gov/expapi/verbs/completed", display: { "en-US": "completed", "ja-JP": "完了した" } },
} as const;
export type VerbName = keyof typeof VERBS;

const ASSESSMENT = "http://adlnet.gov/expapi/activities/assessment";
const QUESTION = "http://adlnet.gov/expapi/activities/question";

export interface StatementFacts {
  /** the statement's id (a UUID), also its row's */
  id: string;
  verb: VerbName;
  timestamp: string;
  /** AUTH_URL, without a trailing slash */
  base: string;
  academyId: string;
  /** `name` only when the academy shares names (an agent carries one identifier: the account, never an e-mail) */
  person: { sourcedId: string; name?: string | null };
  activity: { id: string; title: string; curriculumCode?: string | null };
  scene?: { id: string; position: number; curriculumCode?: string | null };
  registration: string;
  sessionId?: string | null;
  className?: string | null;
  result?: { response?: string; success?: boolean; correct?: number; total?: number; completion?: boolean };
}

export type Statement = Record<string, unknown>;

export const academyHomePage = (base: string, academyId: string) => `${base}/xapi/academies/${academyId}`;
export const activityIri = (base: string, activityId: string) => `${base}/xapi/activities/${activityId}`;
export const sceneIri = (base: string, activityId: string, sceneId: string) =>
  `${activityIri(base, activityId)}/scenes/${sceneId}`;
export const extensionIri = (base: string, name: "session" | "class" | "curriculum-code") =>
  `${base}/xapi/extensions/${name}`;

function actorOf(f: StatementFacts): Statement {
  const named = f.person.name ? { name: f.person.name } : {};
  // one inverse functional identifier only: the account (xAPI 1.0.3 allows no second, so no e-mail address)
  return {
    objectType: "Agent",
    ...named,
    account: { homePage: academyHomePage(f.base, f.academyId), name: f.person.sourcedId },
  };
}

function objectOf(f: StatementFacts): Statement {
  if (!f.scene) {
    return {
      objectType: "Activity",
      id: activityIri(f.base, f.activity.id),
      definition: { type: ASSESSMENT, name: { "ja-JP": f.activity.title || "-" } },
    };
  }
  return {
    objectType: "Activity",
    id: sceneIri(f.base, f.activity.id, f.scene.id),
    definition: { type: QUESTION, name: { "ja-JP": `${f.activity.title || "-"} #${f.scene.position + 1}` } },
  };
}

function resultOf(r: NonNullable<StatementFacts["result"]>): Statement {
  const out: Statement = {};
  if (r.response !== undefined) out.response = r.response;
  if (r.success !== undefined) out.success = r.success;
  if (r.completion !== undefined) out.completion = r.completion;
  if (r.total !== undefined && r.total > 0 && r.correct !== undefined) {
    out.score = { raw: r.correct, min: 0, max: r.total, scaled: Math.round((r.correct / r.total) * 10_000) / 10_000 };
  }
  return out;
}

function contextOf(f: StatementFacts): Statement {
  const extensions: Record<string, unknown> = {};
  if (f.sessionId) extensions[extensionIri(f.base, "session")] = f.sessionId;
  if (f.className) extensions[extensionIri(f.base, "class")] = f.className;
  const code = f.scene?.curriculumCode ?? f.activity.curriculumCode;
  if (code) extensions[extensionIri(f.base, "curriculum-code")] = code;
  return {
    registration: f.registration,
    platform: "Manabiya",
    language: "ja-JP",
    ...(f.scene
      ? { contextActivities: { parent: [{ objectType: "Activity", id: activityIri(f.base, f.activity.id) }] } }
      : {}),
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
  };
}

/** The statement `facts` describe, as sent to the LRS and kept in xapi_statements. */
export function buildStatement(facts: StatementFacts): Statement {
  const result = facts.result ? resultOf(facts.result) : {};
  return {
    id: facts.id,
    actor: actorOf(facts),
    verb: VERBS[facts.verb],
    object: objectOf(facts),
    ...(Object.keys(result).length > 0 ? { result } : {}),
    context: contextOf(facts),
    timestamp: facts.timestamp,
    version: XAPI_VERSION,
  };
}

/** An answer as the statement's `result.response`: text as it is, anything else as its JSON (at most 4,000 characters). */
export function responseText(answer: unknown): string {
  const text = typeof answer === "string" ? answer : JSON.stringify(answer ?? null);
  return text.length > 4_000 ? text.slice(0, 4_000) : text;
}
