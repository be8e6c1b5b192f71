// Builds kanji-readings.tsv from KANJIDIC (the Electronic Dictionary Research and Development Group's file, as Debian's
// package `kanjidic` 2022.08.23 installs it at /usr/share/edict/kanjidic, EUC-JP):
// node features/activities/server/lexicon/extract-kanji.mjs [/usr/share/edict/kanjidic]
// Keeps the 常用漢字 (KANJIDIC's grades 1 to 8) with their readings: the on readings in hiragana and the kun readings
// without their okurigana (た.べる as た), a prefix's or a suffix's without its dash (あい- as あい), and not the
// readings of names.
// Each line: a reading, then the kanji read so, the most used first (KANJIDIC's rank by frequency in newspapers, its
// field F; a kanji without one last), sorted by the reading (JavaScript's string order).
import { readFileSync, writeFileSync } from "node:fs";

const source = process.argv[2] ?? "/usr/share/edict/kanjidic";
const hiragana = (s) => s.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
const byReading = new Map();
const rank = new Map();
for (const line of new TextDecoder("euc-jp").decode(readFileSync(source)).split("\n")) {
  const grade = / G(\d+) /.exec(line);
  if (!grade || Number(grade[1]) > 8) continue;
  const [kanji, ...fields] = line.split(" ");
  rank.set(kanji, Number(/ F(\d+) /.exec(line)?.[1] ?? 9999));
  for (const field of fields) {
    if (field === "T1" || field === "T2" || field.startsWith("{")) break;
    if (!/^-?[\u3041-\u3096\u30a1-\u30f6.ー]+-?$/u.test(field)) continue;
    const reading = hiragana(field.replace(/-/g, "").split(".")[0]);
    const kanjiOf = byReading.get(reading) ?? [];
    if (!kanjiOf.includes(kanji)) kanjiOf.push(kanji);
    byReading.set(reading, kanjiOf);
  }
}
for (const kanji of byReading.values()) kanji.sort((a, b) => rank.get(a) - rank.get(b));
const lines = [...byReading].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([r, k]) => `${r}\t${k.join("")}`);
writeFileSync(new URL("kanji-readings.tsv", import.meta.url), lines.join("\n") + "\n");
console.log(`${lines.length} readings`);
