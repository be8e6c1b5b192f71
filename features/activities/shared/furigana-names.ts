import { rubyParts } from "@/platform/names/person-name";
import type { NameEntry } from "./furigana-propose";

/**
 * The roster's names with a reading, as the proposals use them: each name cut
 * into its parts (family, given) when the name and its kana split alike, so a
 * text naming only 山田 or only 花子 gets the roster's reading too. A name two
 * people write alike but read differently gives no reading (the dictionary's
 * stands, for the teacher to correct).
 */
export function nameEntries(rows: { name: string | null; nameKana: string | null }[]): NameEntry[] {
  const entries = new Map<string, NameEntry>();
  const add = (parts: NameEntry["parts"]) => {
    const key = parts.map((p) => `${p.base}\u0000${p.reading}`).join("\u0001");
    if (parts.some((p) => p.base === "")) return;
    entries.set(key, { parts });
  };
  for (const row of rows) {
    const name = row.name?.trim();
    const reading = row.nameKana?.trim();
    if (!name || !reading) continue;
    const parts = rubyParts({ base: name, reading }).map((p) => ({ base: p.base, reading: p.reading ?? "" }));
    add(parts);
    if (parts.length > 1) for (const part of parts) if (part.reading) add([part]);
  }
  // two people written alike but read differently (山田: やまだ, やまた): the roster cannot tell which is meant
  const readings = new Map<string, Set<string>>();
  for (const e of entries.values()) {
    const surface = e.parts.map((p) => p.base).join("");
    readings.set(surface, (readings.get(surface) ?? new Set()).add(e.parts.map((p) => p.reading).join(" ")));
  }
  return [...entries.values()].filter((e) => readings.get(e.parts.map((p) => p.base).join(""))!.size === 1);
}
