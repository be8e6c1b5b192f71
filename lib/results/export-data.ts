import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import type { DisplayLanguage } from "@/lib/i18n/languages";
import { toPlainText } from "@/lib/richtext/plain";
import type { AuthorizedSchoolId } from "@/lib/schools/scope";
import { CSV_BOM, csvRow } from "./csv";
import type { ActivityStats } from "./stats";

/** The results as on the stats screen (same object, same filters), one row per number shown. */
export function resultsCsv(stats: ActivityStats, lang: DisplayLanguage): string {
  const plain = (s: string) => toPlainText(s, lang);
  let out = CSV_BOM + csvRow(["scene", "type", "prompt", "item", "item2", "count", "percent"]);
  for (const [key, n] of Object.entries(stats.overview)) out += csvRow(["", "overview", "", key, "", n, ""]);
  const pct = (n: number, total: number) => (total > 0 ? Math.round((n / total) * 1000) / 10 : 0);
  stats.scenes.forEach((s, i) => {
    const base = [i + 1, s.scene.type, plain(s.scene.content.prompt)];
    out += csvRow([...base, "answered", "", s.answered, ""]);
    if (s.scene.type === "single_choice" || s.scene.type === "multiple_choice") {
      for (const o of s.scene.content.options) out += csvRow([...base, plain(o.label), "", s.choices[o.id] ?? 0, pct(s.choices[o.id] ?? 0, s.answered)]);
    }
    if (s.scene.type === "scale") {
      for (let v = 1; v <= 5; v++) out += csvRow([...base, String(v), "", s.values[String(v)] ?? 0, pct(s.values[String(v)] ?? 0, s.answered)]);
      out += csvRow([...base, "median", "", s.median ?? "", ""]);
    }
    if (s.scene.type === "two_step") {
      const c = s.scene.content;
      const seconds = [...(c.second.options ?? []), ...Object.values(c.second.optionsByFirst ?? {}).flat()].filter((o, j, all) => all.findIndex((x) => x.id === o.id) === j);
      for (const f of c.first.options) for (const o of seconds) out += csvRow([...base, plain(f.label), plain(o.label), s.cross[f.id]?.[o.id] ?? 0, pct(s.cross[f.id]?.[o.id] ?? 0, s.answered)]);
    }
    if (s.scene.type === "free_text") for (const x of s.texts) out += csvRow([...base, x.text, x.name, 1, ""]);
  });
  return out;
}

const RESEARCH_COLUMNS = [
  "school", "grade", "class", "number", "student_id", "role", "counterbalance_group", "scene_id", "scene_position", "scene_type",
  "first", "second", "reason", "answer_json", "mode", "session_id", "created_at", "updated_at",
] as const;

/**
 * The header of the research export. The pseudonymous one has no seat number
 * (with grade and class it names the student within the class) and no user id:
 * a pseudonym takes its place.
 */
export function researchColumns(pseudonymous: boolean): string[] {
  return pseudonymous ? RESEARCH_COLUMNS.flatMap((c) => (c === "number" ? [] : c === "student_id" ? ["pseudonym"] : [c])) : [...RESEARCH_COLUMNS];
}

/**
 * Pseudonyms of one export: an HMAC of the user id under a random key made for
 * this export and never stored, so the same student has one pseudonym within the
 * file, and two exports cannot be joined on it (nor can anyone, the server
 * included, map one back to a student).
 */
function exportPseudonyms(): (userId: string) => string {
  const key = randomBytes(32);
  return (userId) => `p_${createHmac("sha256", key).update(userId).digest("base64url").slice(0, 16)}`;
}

/**
 * The long-format rows of one activity, 500 at a time in id order (streamed:
 * never the whole file in memory). Only responses of the school's own users:
 * a user of another school who answered (an id copied across schools) is not
 * this school's data, whatever activity they answered.
 */
export async function* researchRows(school: AuthorizedSchoolId, activityId: string, pseudonymous: boolean): AsyncGenerator<string> {
  const schoolRow = await db().school.findUniqueOrThrow({ where: { id: school }, select: { name: true } });
  const pseudonym = pseudonymous ? exportPseudonyms() : null;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const batch = await db().response.findMany({
      where: { activityId, activity: { schoolId: school }, user: { schoolId: school }, id: { gt: after } },
      orderBy: { id: "asc" },
      take: 500,
      select: {
        id: true, answer: true, scenePosition: true, counterbalanceGroup: true, mode: true, sessionId: true, createdAt: true, updatedAt: true, userId: true,
        scene: { select: { id: true, type: true } },
        user: { select: { role: true, student: { select: { grade: true, className: true, number: true } } } },
      },
    });
    if (batch.length === 0) return;
    let chunk = "";
    for (const r of batch) {
      const a = (r.answer ?? {}) as Record<string, unknown>;
      const who = pseudonym ? [pseudonym(r.userId)] : [r.user.student?.number, r.userId];
      chunk += csvRow([
        schoolRow.name, r.user.student?.grade, r.user.student?.className, ...who, r.user.role,
        r.counterbalanceGroup, r.scene.id, r.scenePosition, r.scene.type, a.first ?? a.choice ?? "", a.second ?? "", a.reason ?? a.text ?? "",
        JSON.stringify(r.answer), r.mode, r.sessionId, r.createdAt.toISOString(), r.updatedAt.toISOString(),
      ]);
    }
    yield chunk;
    after = batch.at(-1)!.id;
  }
}
