import "server-only";
import { groupWords } from "@/features/scenes/shared/word-cloud";
import { createHmac, randomBytes } from "node:crypto";
import { db } from "@/platform/db";
import type { MarkCells } from "@/features/results/server/mark-queries";
import type { DisplayLanguage } from "@/platform/i18n/languages";
import { verdictOf } from "@/features/scenes/shared/key";
import { blanksOf } from "@/features/scenes/shared/fill-blanks";
import { blankSummaries } from "@/features/scenes/shared/typed-results";
import { type Scene, type SceneContent, sceneSchema } from "@/features/scenes/shared/schema";
import { positionsRight } from "@/features/scenes/shared/ordering";
import { pairsRight } from "@/features/scenes/shared/matching";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { seatInYearJoin } from "@/features/people/server/year-seat";
import { csvRow, tokyoTimestamp } from "@/platform/csv";
import { type CsvColumn, csvTexts } from "../../activities/server/export-texts";
import type { ActivityStats, Person, SceneStats } from "./stats";

const OVERVIEW = {
  assigned: "assigned",
  started: "started",
  finished: "finished",
  guide: "inGuide",
  self: "inSelf",
} as const;

type CsvTexts = ReturnType<typeof csvTexts>;
/** A row of one version of a scene: the cells, then the version column and a free text's or drawing's mark and comment. */
type SceneRow = (cells: unknown[], marks?: unknown[]) => string;

const RESULTS_COLUMNS = [
  "scene",
  "type",
  "prompt",
  "item",
  "item2",
  "count",
  "percent",
  "sceneVersion",
  "teacherMark",
  "teacherComment",
  "academicYear",
] as const;

const pct = (n: number, total: number) => (total > 0 ? Math.round((n / total) * 1000) / 10 : 0);

/** A row closed by the activity's academic year (the eleventh column), after the columns older files had. */
const yearRow = (cells: unknown[], academicYear: number) =>
  csvRow([...cells, ...Array<string>(Math.max(0, 10 - cells.length)).fill(""), academicYear]);

/** Who gave an answer, as the display language writes a name (kana: its reading). */
const shownName = (who: Person, lang: DisplayLanguage) =>
  lang === "ja-kana" ? (who.name.reading ?? who.name.base) : who.name.base;

/** Per value 1–5 (the ends with their labels), then the median. */
function scaleRows(s: SceneStats, content: SceneContent<"scale">, base: unknown[], row: SceneRow, tx: CsvTexts) {
  let out = "";
  const ends: Record<number, string> = { 1: tx.plain(content.minLabel), 5: tx.plain(content.maxLabel) };
  for (let v = 1; v <= 5; v++)
    out += row([
      ...base,
      String(v),
      ends[v] ?? "",
      s.values[String(v)] ?? 0,
      pct(s.values[String(v)] ?? 0, s.answered),
    ]);
  return out + row([...base, tx.column("median"), "", s.median ?? "", ""]);
}

/** Per first option × second option (every second option once, whichever first it follows). */
function crossRows(s: SceneStats, c: SceneContent<"two_step">, base: unknown[], row: SceneRow, tx: CsvTexts) {
  let out = "";
  const seconds = [...(c.second.options ?? []), ...Object.values(c.second.optionsByFirst ?? {}).flat()].filter(
    (o, j, all) => all.findIndex((x) => x.id === o.id) === j,
  );
  for (const f of c.first.options)
    for (const o of seconds)
      out += row([
        ...base,
        tx.plain(f.label),
        tx.plain(o.label),
        s.cross[f.id]?.[o.id] ?? 0,
        pct(s.cross[f.id]?.[o.id] ?? 0, s.answered),
      ]);
  return out;
}

/** An ordering, per position (from 1): the item that belongs there, and how many put it there. */
function orderingRows(s: SceneStats, c: SceneContent<"ordering">, base: unknown[], row: SceneRow, tx: CsvTexts) {
  return positionsRight(c, s.cross)
    .map(({ item, right }, i) => row([...base, String(i + 1), tx.plain(item.label), right, pct(right, s.answered)]))
    .join("");
}

/** A matching, per left item: its right item by the key, and how many matched it so. */
function matchingRows(s: SceneStats, c: SceneContent<"matching">, base: unknown[], row: SceneRow, tx: CsvTexts) {
  const label = (id: string | undefined) => tx.plain(c.right.find((r) => r.id === id)?.label ?? "");
  return pairsRight(c, s.cross)
    .map(({ left, right }) => row([...base, tx.plain(left.label), label(left.correct), right, pct(right, s.answered)]))
    .join("");
}

/** The rows after "answered" and the correct rates: per option, value or cell, or per drawing or text with who gave it. */
function distributionRows(s: SceneStats, base: unknown[], row: SceneRow, tx: CsvTexts, lang: DisplayLanguage) {
  const { plain } = tx;
  let out = "";
  if (s.scene.type === "single_choice" || s.scene.type === "multiple_choice") {
    for (const o of s.scene.content.options)
      out += row([...base, plain(o.label), "", s.choices[o.id] ?? 0, pct(s.choices[o.id] ?? 0, s.answered)]);
  }
  if (s.scene.type === "scale") out += scaleRows(s, s.scene.content, base, row, tx);
  if (s.scene.type === "two_step") out += crossRows(s, s.scene.content, base, row, tx);
  if (s.scene.type === "ordering") out += orderingRows(s, s.scene.content, base, row, tx);
  if (s.scene.type === "matching") out += matchingRows(s, s.scene.content, base, row, tx);
  if (s.scene.type === "drawing")
    for (const x of s.drawings)
      out += row([...base, tx.drawing(x.strokes), shownName(x.who, lang), 1, ""], markCells(x, tx));
  if (s.scene.type === "free_text")
    for (const x of s.texts) out += row([...base, x.text, shownName(x.who, lang), 1, ""], markCells(x, tx));
  if (s.scene.type === "fill_blanks") out += blankRows(s, blanksOf(s.scene.content.text).length, base, row, tx);
  if (s.scene.type === "word_cloud")
    for (const w of groupWords(Object.entries(s.typed.words ?? {}).map(([word, n]) => ({ word, n }))))
      out += row([...base, w.word, "", w.n, pct(w.n, s.answered)]);
  if (s.scene.type === "number")
    for (const [value, n] of Object.entries(s.typed.number ?? {}).sort((x, y) => Number(x[0]) - Number(y[0])))
      out += row([...base, value, s.scene.content.unit ? plain(s.scene.content.unit) : "", n, pct(n, s.answered)]);
  return out;
}

/** Per blank: how many were right, then its most common wrong answers (features/scenes/shared/typed-results.ts). */
function blankRows(s: SceneStats, blanks: number, base: unknown[], row: SceneRow, tx: CsvTexts) {
  let out = "";
  blankSummaries(s.typed, blanks).forEach((b, i) => {
    out += row([...base, tx.blank(i + 1), tx.column("correctRate"), b.right, pct(b.right, s.answered)]);
    for (const [answer, n] of b.wrong)
      out += row([...base, tx.blank(i + 1), `${tx.column("wrongAnswer")}: ${answer}`, n, pct(n, s.answered)]);
  });
  return out;
}

/** The rows of one version of a scene, numbered `i + 1` (an information scene has none). */
function sceneRows(s: SceneStats, i: number, tx: CsvTexts, lang: DisplayLanguage, academicYear: number): string {
  if (s.scene.type === "info") return "";
  const base = [i + 1, tx.type(s.scene.type), tx.plain(s.scene.content.prompt)];
  const row: SceneRow = (cells, marks = []) => yearRow([...cells, s.version, ...marks], academicYear);
  let out = row([...base, tx.column("answered"), "", s.answered, ""]);
  if (s.correct)
    out += row([
      ...base,
      tx.column("correctRate"),
      "",
      s.correct.all.correct,
      pct(s.correct.all.correct, s.correct.all.answered),
    ]);
  if (s.correct?.marked)
    out += row([
      ...base,
      tx.column("markPartly"),
      "",
      s.correct.all.partly ?? 0,
      pct(s.correct.all.partly ?? 0, s.correct.all.answered),
    ]);
  return out + distributionRows(s, base, row, tx, lang);
}

/**
 * The results as on the stats screen (same object, same filters), one row per
 * number shown, in the user's display language: option labels as plain text,
 * scenes numbered from 1 as on the screen; information scenes have no row.
 */
export function resultsCsv(stats: ActivityStats, lang: DisplayLanguage): string {
  const tx = csvTexts(lang);
  let out = csvRow(RESULTS_COLUMNS.map(tx.column));
  for (const [key, n] of Object.entries(stats.overview))
    out += yearRow(
      ["", tx.column("overview"), "", tx.result(OVERVIEW[key as keyof typeof OVERVIEW]), "", n, "", ""],
      stats.academicYear,
    );
  // each scene's current version, then its earlier versions with answers, each read with its own content (docs/adr/0059-scene-versions.md)
  stats.scenes
    .flatMap((s, i) => [s, ...s.earlier].map((v) => [v, i] as const))
    .forEach(([s, i]) => {
      out += sceneRows(s, i, tx, lang, stats.academicYear);
    });
  return out;
}

const RESEARCH_COLUMNS = [
  "school",
  "grade",
  "class",
  "number",
  "studentId",
  "role",
  "group",
  "sceneId",
  "scene",
  "sceneVersion",
  "shownAt",
  "type",
  "first",
  "second",
  "reason",
  "answerJson",
  "correct",
  "mode",
  "session",
  "createdAt",
  "updatedAt",
  "late",
  "teacherMark",
  "teacherComment",
  "academicYear",
] as const satisfies readonly CsvColumn[];

/**
 * The columns of the research export. The pseudonymous one has no seat number
 * (with grade and class it names the student within the class) and no user id:
 * a pseudonym takes its place.
 */
export function researchColumns(pseudonymous: boolean): CsvColumn[] {
  return pseudonymous
    ? RESEARCH_COLUMNS.flatMap((c): CsvColumn[] => (c === "number" ? [] : c === "studentId" ? ["pseudonym"] : [c]))
    : [...RESEARCH_COLUMNS];
}

/** The header of the research export in the user's display language. */
export function researchHeader(pseudonymous: boolean, lang: DisplayLanguage): string[] {
  const tx = csvTexts(lang);
  return researchColumns(pseudonymous).map(tx.column);
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

/** A drawing answer's stroke count (0 for anything else). */
const strokesOf = (a: Record<string, unknown>) => (Array.isArray(a.strokes) ? a.strokes.length : 0);

/** The answer as JSON, a drawing as its stroke count only (a file people open in Excel, not the strokes: up to 60 KB each). */
const answerJson = (type: string, a: Record<string, unknown>, raw: unknown) =>
  JSON.stringify(type === "drawing" ? { strokes: strokesOf(a) } : raw);

/** An answer's choices as the option labels a person reads (an unknown id stays as it is). */
function answerCells(
  scene: Scene | undefined,
  a: Record<string, unknown>,
  tx: ReturnType<typeof csvTexts>,
): [unknown, unknown, unknown] {
  const { plain } = tx;
  if (scene?.type === "drawing") return ["", "", tx.drawing(strokesOf(a))];
  const label = (options: { id: string; label: string }[] | undefined, id: unknown) => {
    const found = typeof id === "string" ? options?.find((o) => o.id === id) : undefined;
    return found ? plain(found.label) : (id ?? "");
  };
  const reason = a.reason ?? a.text ?? "";
  if (scene?.type === "two_step") {
    const c = scene.content;
    const seconds = (typeof a.first === "string" ? c.second.optionsByFirst?.[a.first] : undefined) ?? c.second.options;
    return [label(c.first.options, a.first), label(seconds, a.second), reason];
  }
  if (scene?.type === "ordering" && Array.isArray(a.order))
    return [a.order.map((id) => label(scene.content.items, id)).join(" → "), "", ""];
  if (scene?.type === "matching" && a.pairs && typeof a.pairs === "object") {
    const { left, right } = scene.content;
    const pairs = a.pairs as Record<string, unknown>;
    return [left.map((l) => `${label(left, l.id)} → ${label(right, pairs[l.id])}`).join("、"), "", ""];
  }
  if (scene?.type === "single_choice") return [label(scene.content.options, a.choice), "", reason];
  if (scene?.type === "fill_blanks" && Array.isArray(a.blanks)) return [a.blanks.join(" / "), "", ""];
  if (scene?.type === "number") return [a.number ?? "", "", ""];
  // a word cloud: the words as the student sent them (the raw answers; the statistics rows group them)
  if (scene?.type === "word_cloud" && Array.isArray(a.words)) return [a.words.join(" / "), "", ""];
  if (scene?.type === "multiple_choice" && Array.isArray(a.choices))
    return [a.choices.map((id) => label(scene.content.options, id)).join("、"), "", reason];
  return [a.first ?? a.choice ?? a.value ?? "", a.second ?? "", reason];
}

/** A teacher's mark and comment (features/results) as two cells in the user's language; the comment as written (csvCell defuses formulas). */
function markCells(m: Partial<MarkCells>, tx: ReturnType<typeof csvTexts>): [string, string] {
  const verdict =
    m.mark === "correct"
      ? tx.column("verdictCorrect")
      : m.mark === "partly"
        ? tx.column("markPartly")
        : m.mark === "incorrect"
          ? tx.column("verdictIncorrect")
          : "";
  return [verdict, m.comment ?? ""];
}

/** 正解 / 不正解 by the scene's key; empty for a scene without one. */
function verdictCell(scene: Scene | undefined, answer: unknown, tx: ReturnType<typeof csvTexts>): string {
  const verdict = scene ? verdictOf(scene, answer) : null;
  return verdict === null ? "" : tx.column(verdict === "correct" ? "verdictCorrect" : "verdictIncorrect");
}

/**
 * The content of every version of the activity's scenes, retired ones included, by `sceneId:version`
 * (docs/adr/0059-scene-versions.md): each answer is read with the content it answered.
 */
async function exportedScenes(school: AuthorizedSchoolId, activityId: string): Promise<Map<string, Scene>> {
  const stored = await db().activityScene.findMany({
    where: {
      OR: [
        { activityId, activity: { schoolId: school } },
        { retiredFromId: activityId, retiredFrom: { schoolId: school } },
      ],
    },
    select: {
      id: true,
      type: true,
      content: true,
      version: true,
      versions: { select: { version: true, content: true } },
    },
  });
  return new Map(
    stored.flatMap((s) =>
      [{ version: s.version, content: s.content }, ...s.versions].flatMap((v) => {
        const parsed = sceneSchema.safeParse({ type: s.type, content: v.content });
        return parsed.success ? [[`${s.id}:${v.version}`, parsed.data] as const] : [];
      }),
    ),
  );
}

/**
 * The long-format rows of one activity, 500 at a time in id order (streamed:
 * never the whole file in memory), in the user's display language: option
 * labels rather than ids, scene numbers from 1, times in Tokyo with the offset.
 * Only responses of the school's own users: a user of another school who
 * answered (an id copied across schools) is not this school's data.
 */
export async function* researchRows(
  school: AuthorizedSchoolId,
  activityId: string,
  pseudonymous: boolean,
  lang: DisplayLanguage,
): AsyncGenerator<string> {
  const tx = csvTexts(lang);
  const schoolRow = await db().school.findUniqueOrThrow({ where: { id: school }, select: { name: true } });
  const scenes = await exportedScenes(school, activityId);
  const year =
    (await db().activity.findFirst({ where: { id: activityId, schoolId: school }, select: { academicYear: true } }))
      ?.academicYear ?? "";
  const pseudonym = pseudonymous ? exportPseudonyms() : null;
  const seats = await respondentSeats(school, activityId);
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const batch = await db().response.findMany({
      where: { activityId, activity: { schoolId: school }, user: { schoolId: school }, id: { gt: after } },
      orderBy: { id: "asc" },
      take: 500,
      select: {
        id: true,
        answer: true,
        scenePosition: true,
        sceneVersion: true,
        counterbalanceGroup: true,
        mode: true,
        sessionId: true,
        createdAt: true,
        updatedAt: true,
        late: true,
        userId: true,
        scene: { select: { id: true, type: true, position: true } },
        user: { select: { role: true } },
        mark: { select: { verdict: true, comment: true } },
      },
    });
    if (batch.length === 0) return;
    let chunk = "";
    for (const r of batch) {
      const a = (r.answer ?? {}) as Record<string, unknown>;
      const scene = scenes.get(`${r.scene.id}:${r.sceneVersion}`);
      const seat = seats.get(r.userId);
      const who = pseudonym ? [pseudonym(r.userId)] : [seat?.number, r.userId];
      chunk += csvRow([
        schoolRow.name,
        seat?.grade,
        seat?.class_name,
        ...who,
        tx.role(r.user.role),
        r.counterbalanceGroup,
        r.scene.id,
        r.scene.position + 1,
        r.sceneVersion,
        r.scenePosition + 1,
        tx.type(r.scene.type),
        ...answerCells(scene, a, tx),
        answerJson(r.scene.type, a, r.answer),
        verdictCell(scene, r.answer, tx),
        tx.mode(r.mode),
        r.sessionId,
        tokyoTimestamp(r.createdAt),
        tokyoTimestamp(r.updatedAt),
        r.late ? 1 : 0,
        ...markCells({ mark: r.mark?.verdict ?? null, comment: r.mark?.comment ?? null }, tx),
        year,
      ]);
    }
    yield chunk;
    after = batch.at(-1)!.id;
  }
}

/** The seat each of the school's respondents had in the activity's year (features/people/server/year-seat.ts), by user id. */
async function respondentSeats(school: AuthorizedSchoolId, activityId: string) {
  const rows = await db().$queryRaw<
    { id: string; grade: number | null; class_name: string | null; number: number | null }[]
  >`
    select u.id::text as id, sd.grade, sd.class_name, sd.number
    from activities a join users u on u.school_id = a.school_id
    ${seatInYearJoin("u.id", "a.academic_year")}
    where a.id = ${activityId}::uuid and a.school_id = ${school}::uuid
      and exists (select 1 from responses r where r.activity_id = a.id and r.user_id = u.id)`;
  return new Map(rows.map((r) => [r.id, r]));
}
