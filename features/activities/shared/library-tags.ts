/**
 * The library's closed tag lists (docs/product-design.md "The academy
 * library"). Grades name the school stage, so one academy's elementary and
 * junior-high schools share one list: e1–e6 小1–小6, j1–j3 中1–中3, h1–h3
 * 高1–高3. Subjects follow the Japanese course of study; "homeroom" is 特別活動
 * (the bundled reflection templates), "other" anything else.
 */
export const SUBJECTS = [
  "japanese",
  "math",
  "science",
  "social",
  "english",
  "life",
  "music",
  "art",
  "homeEconomics",
  "technology",
  "pe",
  "moral",
  "integrated",
  "homeroom",
  "information",
  "other",
] as const;
export type Subject = (typeof SUBJECTS)[number];

export const GRADES = ["e1", "e2", "e3", "e4", "e5", "e6", "j1", "j2", "j3", "h1", "h2", "h3"] as const;
export type Grade = (typeof GRADES)[number];

/** A school stage, the first letter of its grades: the library's filter finds every grade of one (小学校, 中学校, 高校). */
export const STAGES = ["e", "j", "h"] as const;
export type Stage = (typeof STAGES)[number];

/** The longest unit name (a unit is free text: 「一次方程式」, 「ものの溶け方」). */
export const UNIT_MAX = 100;
