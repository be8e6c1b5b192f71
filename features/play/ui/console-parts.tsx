"use client";
import { createContext, type ReactNode, useContext } from "react";

/** The answer a tool beside it in the live console acts on: one student's response to the activity's current scene. */
export interface AnswerToolProps {
  activityId: string;
  schoolId?: string;
  responseId: string;
}

/** A two-step scene's first × second counts in the live console: the session's class's answers to the current scene. */
export interface CrossTableProps {
  activityId: string;
  schoolId?: string;
  sceneId: string;
  /** The class the session runs for ("1:2", features/people/shared/class-key.ts); null: the whole school. */
  classKey: string | null;
  firsts: { id: string; label: ReactNode }[];
  seconds: { id: string; label: ReactNode }[];
  cross: Record<string, Record<string, number>>;
}

/**
 * What a higher feature puts in the live console (features/results puts the teacher's comment box beside the star of
 * a student's answer, and the two-step cross-table beside the charts): play does not import it, the screen that shows
 * the console provides it.
 */
export interface ConsoleParts {
  answerTool?: (answer: AnswerToolProps) => ReactNode;
  crossTable?: (table: CrossTableProps) => ReactNode;
}

const ConsolePartsContext = createContext<ConsoleParts>({});

export const ConsolePartsProvider = ConsolePartsContext.Provider;

/** The parts provided for the live console (none: the star alone, the charts alone). */
export function useConsoleParts(): ConsoleParts {
  return useContext(ConsolePartsContext);
}
