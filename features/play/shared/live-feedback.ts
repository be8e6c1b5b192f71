import type { Verdict } from "@/features/scenes/shared/key";

/** What a student sees once the teacher shows the answer: the key, and their own ○/× (null: they did not answer). */
export interface LiveFeedback {
  sceneId: string;
  correct: string[];
  verdict: Verdict | null;
}
