/**
 * Teacher marks (docs/product-design.md "Results", teacher marks and comments), zod-free for the
 * browser: the verdicts a teacher gives, the scene types they are given on (choice scenes
 * have their key and automatic verdicts instead), and the comment's length.
 */
export const MARK_VERDICTS = ["correct", "partly", "incorrect"] as const;
export type MarkVerdict = (typeof MARK_VERDICTS)[number];
export const MARKED_SCENE_TYPES = ["free_text", "drawing"] as const;
export const COMMENT_MAX = 500;

export const isMarkedSceneType = (type: string): boolean => (MARKED_SCENE_TYPES as readonly string[]).includes(type);

/** A mark as staff see it: who marked it and when, and whether the answer changed since. */
export interface StaffMark {
  verdict: MarkVerdict | null;
  comment: string | null;
  markedBy: string | null;
  /** ISO time of the last mark. */
  markedAt: string;
  /** The answer changed after it was marked (the mark is kept, shown as made before). */
  stale: boolean;
  /** This save replaced another teacher's mark the form had not shown (last save wins; the teacher is told). */
  replaced?: { by: string | null; at: string };
}

/** A mark as the student sees it on their result page (the verdict only when the feedback timing allows). */
export interface OwnMark {
  verdict: MarkVerdict | null;
  comment: string | null;
  stale: boolean;
}
