"use client";
import type { ReactNode } from "react";
import { type ConsoleParts, ConsolePartsProvider } from "@/features/play/ui/console-parts";
import { CrossTable } from "./cross-table";
import { LiveComment } from "./live-comment";

/** Results' parts of the live console: the comment box beside an answer's star, the two-step cross-table of the class. */
const parts: ConsoleParts = {
  answerTool: (answer) => <LiveComment key={answer.responseId} {...answer} />,
  // a cell's reasons are the class's (the stats page's class filter): the same students as the counts
  crossTable: ({ classKey, ...table }) => (
    <CrossTable key={table.sceneId} {...table} filter={classKey ? { class: classKey } : {}} />
  ),
};

/** The live console with results' parts in it (features/play/ui/console-parts.tsx). */
export function LiveConsoleParts({ children }: { children: ReactNode }) {
  return <ConsolePartsProvider value={parts}>{children}</ConsolePartsProvider>;
}
