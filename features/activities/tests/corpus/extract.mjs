// Builds dev.tsv, held-out.tsv and held-out-2.tsv from jsut-label's text_kana/basic5000.yaml (blob a55ecde, commit be8dfbd):
// node features/activities/tests/corpus/extract.mjs <basic5000.yaml>
// Each line is a sentence's text_level2 (the text as the speaker said it) with kana_level2 (its reading), the pair
// jsut-label's README describes: text_level0, the original text, sometimes differs from what was said (広い地域 for
// a 水域 said), and in BASIC5000_1177 and 1178 the said text and reading are the next sentence's. Keeps the
// sentences whose original text and said text are written in kanji, kana and Japanese punctuation only (no digits, latin or symbols, whose
// reading the ruby never carries); BASIC5000_0001–1500 are the development part, 3501–4500 the held-out part,
// and the rest (1501–3500 and 4501–5000) the second held-out part, split off on 2026-11-29 after the rules had been
// written against the first two (README.md).
import { readFileSync, writeFileSync } from "node:fs";

const PLAIN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}々〆ヶー、。「」『』・！？（）]+$/u;
const rows = [];
let id = null;
let text = null;
let said = null;
for (const line of readFileSync(process.argv[2], "utf8").split("\n")) {
  const head = /^(BASIC5000_\d{4}):$/.exec(line);
  if (head) id = head[1];
  const field = /^ {2}(text_level0|text_level2|kana_level2): (.*)$/.exec(line);
  if (field?.[1] === "text_level0") text = field[2].trim();
  if (field?.[1] === "text_level2") said = field[2].trim();
  if (field?.[1] === "kana_level2" && id && text && said)
    rows.push({ n: Number(id.slice(10)), id, text, said, kana: field[2].trim() });
}
const keep = (...ranges) =>
  rows
    .filter((r) => ranges.some(([from, to]) => r.n >= from && r.n <= to) && PLAIN.test(r.text) && PLAIN.test(r.said))
    .map((r) => `${r.id}\t${r.said}\t${r.kana}`)
    .join("\n") + "\n";
const here = new URL(".", import.meta.url);
writeFileSync(new URL("dev.tsv", here), keep([1, 1500]));
writeFileSync(new URL("held-out.tsv", here), keep([3501, 4500]));
writeFileSync(new URL("held-out-2.tsv", here), keep([1501, 3500], [4501, 5000]));
