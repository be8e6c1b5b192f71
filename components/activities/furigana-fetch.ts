import { applyFurigana, type Proposal } from "@/lib/furigana/propose";
import { type Draft, getAt, setAt, textPaths } from "./scene-content";

/** The readings the server proposes for `text` (POST /api/v1/furigana); a thrown error or a refusal is a failure. */
export async function fetchProposals(text: string, schoolId?: string): Promise<Proposal[] | "tooLong" | null> {
  const res = await fetch("/api/v1/furigana", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text, ...(schoolId ? { schoolId } : {}) }),
  }).catch(() => null);
  if (!res) return null;
  if (res.status === 413) return "tooLong";
  const body = (await res.json().catch(() => null)) as { ok?: boolean; data?: { proposals?: Proposal[] } } | null;
  return res.ok && body?.ok && Array.isArray(body.data?.proposals) ? body.data.proposals : null;
}

const KANJI = /[\p{Script=Han}々〆ヶ]/u;

/**
 * 「保存するときにふりがなをつける」: every proposal (dictionary and roster) applied to every text of
 * the scene, where no ruby is set yet (the proposals skip existing ruby). Null when any text
 * could not be analysed: then nothing is applied and nothing saved.
 */
export async function applyFuriganaToDraft(draft: Draft): Promise<{ draft: Draft; words: number } | null> {
  const paths = textPaths(draft).filter((p) => KANJI.test(String(getAt(draft, p))));
  const results = await Promise.all(paths.map((p) => fetchProposals(String(getAt(draft, p)))));
  let out = draft;
  let words = 0;
  for (const [i, path] of paths.entries()) {
    const proposals = results[i];
    if (!Array.isArray(proposals)) return null;
    out = setAt(out, path, applyFurigana(String(getAt(draft, path)), proposals));
    words += proposals.length;
  }
  return { draft: out, words };
}
