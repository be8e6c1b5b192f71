// Builds compounds.tsv.gz from EDICT (the Electronic Dictionary Research and Development Group's file, as Debian's
// package `edict` 2021.02.03-1 installs it at /usr/share/edict/edict, EUC-JP):
// node features/activities/server/lexicon/extract.mjs [/usr/share/edict/edict]
// Keeps the words written in kanji only that kuromoji's dictionary (node_modules/kuromoji/dict) does not read as one
// word of its own: the compounds it cuts into words read alone (七|輪 なな|りん) and the words it does not know.
// Each line: the word, its readings in hiragana separated by spaces (EDICT's order, without the readings EDICT marks
// as out of date or irregular, (ok) (ik)), and the one reading EDICT marks as common (P) when exactly one is.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import kuromoji from "kuromoji";

const WORD = /^[\p{Script=Han}々ヶ]{2,}$|^\p{Script=Han}$/u;
const KANA = /^[\u3041-\u3096ー]+$/u;
const source = process.argv[2] ?? "/usr/share/edict/edict";
const words = new Map();
for (const line of new TextDecoder("euc-jp").decode(readFileSync(source)).split("\n")) {
  const m = /^(\S+) \[([^\]]+)\] \/(.*)$/.exec(line);
  if (!m || !WORD.test(m[1]) || !KANA.test(m[2])) continue;
  const [, word, reading, glosses] = m;
  if (/^(\([^)]*\) )*\((ok|ik)\)/.test(glosses)) continue;
  const entry = words.get(word) ?? { readings: [], common: [] };
  if (!entry.readings.includes(reading)) entry.readings.push(reading);
  if (glosses.includes("/(P)/")) entry.common.push(reading);
  words.set(word, entry);
}
const tokenizer = await new Promise((resolve, reject) =>
  kuromoji.builder({ dicPath: "node_modules/kuromoji/dict" }).build((e, t) => (e ? reject(e) : resolve(t))),
);
const lines = [];
for (const [word, { readings, common }] of [...words].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const tokens = tokenizer.tokenize(word);
  if (tokens.length === 1 && tokens[0].word_type === "KNOWN") continue;
  lines.push(`${word}\t${readings.join(" ")}\t${common.length === 1 ? common[0] : ""}`);
}
writeFileSync(new URL("compounds.tsv.gz", import.meta.url), gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(`${lines.length} words of ${words.size}`);
