"use client";
import { createContext, type ReactNode, useContext } from "react";

/** The answer a tool beside it in the live console acts on: one student's response to the activity's current scene. */
export interface AnswerToolProps {
  activityId: string;
  schoolId?: string;
  responseId: string;
}

/**
 * A tool a higher feature puts beside the star of a student's answer in the live console (features/results puts
 * the teacher's comment box there): play does not import it, the screen that shows the console provides it.
 */
const AnswerToolContext = createContext<((answer: AnswerToolProps) => ReactNode) | null>(null);

export const AnswerToolProvider = AnswerToolContext.Provider;

/** The tool provided for answers in the live console (it renders one for an answer), or null (none: the star only). */
export function useAnswerTool(): ((answer: AnswerToolProps) => ReactNode) | null {
  return useContext(AnswerToolContext);
}
