import { applyFurigana, type Proposal } from "@/features/activities/shared/furigana-propose";
import { type Draft, getAt, setAt, textPaths } from "./scene-content";

/**
 * The readings the server proposes for `text` (POST /api/v1/furigana); "busy" when the server
 * rations the calls (429: too many at once), a thrown error or another refusal is a failure.
 */
export async function fetchProposals(text: string, schoolId?: string): Promise<Proposal[] | "tooLong" | "busy" | null> {
  const res = await fetch("/api/v1/furigana", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text, ...(schoolId ? { schoolId } : {}) }),
  }).catch(() => null);
  if (!res) return null;
  if (res.status === 413) return "tooLong";
  if (res.status === 429) return "busy";
  const body = (await res.json().catch(() => null)) as { ok?: boolean; data?: { proposals?: Proposal[] } } | null;
  return res.ok && body?.ok && Array.isArray(body.data?.proposals) ? body.data.proposals : null;
}

const KANJI = /[\p{Script=Han}々〆ヶ]/u;

/**
 * 「保存するときにふりがなをつける」: every proposal (dictionary, roster and the school's own words) applied to every text of
 * the scene, where no ruby is set yet (the proposals skip existing ruby). The texts go in one
 * request, joined by line feeds (which no proposal spans), so a scene of 150 option labels is
 * one analysis, bounded like any other. Null when it fails ("busy" when the server asked to wait):
 * then nothing is applied or saved.
 */
export async function applyFuriganaToDraft(
  draft: Draft,
  schoolId?: string,
): Promise<{ draft: Draft; words: number } | "busy" | null> {
  const paths = textPaths(draft).filter((p) => KANJI.test(String(getAt(draft, p))));
  if (paths.length === 0) return { draft, words: 0 };
  const texts = paths.map((p) => String(getAt(draft, p)));
  const proposals = await fetchProposals(texts.join("\n"), schoolId);
  if (proposals === "busy") return proposals;
  if (!Array.isArray(proposals)) return null;
  let out = draft;
  let words = 0;
  let offset = 0;
  for (const [i, path] of paths.entries()) {
    const text = texts[i]!;
    const end = offset + text.length;
    const own = proposals
      .filter((p) => p.start >= offset && p.end <= end)
      .map((p) => ({ ...p, start: p.start - offset, end: p.end - offset }));
    // applyFurigana checks each proposal against this text's own markup
    out = setAt(out, path, applyFurigana(text, own));
    words += own.length;
    offset = end + 1;
  }
  return { draft: out, words };
}
