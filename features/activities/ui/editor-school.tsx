"use client";
import { createContext, type ReactNode, useContext } from "react";

/**
 * The school an activity editor acts on. A teacher edits their own school's activities (no
 * school named); a manager edits those of a school of their academy and names it in every call
 * (each action checks it again: platform/auth/scope.ts). Set once by ActivityEdit.
 */
const EditorSchool = createContext<string | undefined>(undefined);

export function EditorSchoolScope({ schoolId, children }: { schoolId?: string; children: ReactNode }) {
  return <EditorSchool.Provider value={schoolId}>{children}</EditorSchool.Provider>;
}

/** The named school, if any. */
export const useEditorSchool = () => useContext(EditorSchool);

/** `{ schoolId }` to spread into an action's input when a school is named, else `{}`. */
export function useSchoolRef(): { schoolId?: string } {
  const schoolId = useContext(EditorSchool);
  return schoolId ? { schoolId } : {};
}
