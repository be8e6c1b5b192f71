/**
 * The child process that makes sign-in sheet PDFs, so that a large print never competes with the
 * process that serves live classes (features/people/server/sheets-render.ts queues the prints, starts this with
 * `fork` and talks to it over its IPC channel). Everything a print does after the route has authorized
 * it happens here: reading the students, issuing first codes, making the cards
 * (features/people/server/sheets-cards.ts) and drawing the PDF (features/people/server/sheets.tsx), which is written to a
 * file in the directory the parent made for it (the first argument) for the parent to stream. Plain
 * JavaScript, loaded by path at run time and not bundled by Next; the TypeScript modules are loaded
 * through tsx (startIdleChild, platform/server-modules.mjs). It ends when its parent goes.
 */
import fs from "node:fs";
import path from "node:path";
import { startIdleChild } from "../../../platform/server-modules.mjs";

const [{ renderSigninSheets }, { makeSheetCards }, { createPrismaClient }] = await startIdleChild(import.meta.url, [
  "./sheets.tsx",
  "./sheets-cards.ts",
  "../../../platform/db/client.ts",
]);

const dir = process.argv[2];
let client;
let clientUrl;
/** One connection of its own, to the database the job names (its address comes with each job, never in the environment). */
function clientFor({ url, connectMs, statementMs, pooled }) {
  if (clientUrl !== url) {
    void client?.$disconnect();
    client = createPrismaClient(url, 1, { connectMs, statementMs }, pooled);
    clientUrl = url;
  }
  return client;
}

// One job at a time (features/people/server/sheets-render.ts waits for the answer before sending the next):
// the answer is the PDF's file and its counts, or an error.
let printed = 0;
process.on("message", async ({ job }) => {
  try {
    const made = await makeSheetCards(clientFor(job.database), job);
    const pdf = await renderSigninSheets(made.cards, made.texts);
    const file = path.join(dir, `${++printed}.pdf`);
    await fs.promises.writeFile(file, pdf, { mode: 0o600 });
    process.send?.({ file, bytes: pdf.byteLength, cards: made.cards.length, issued: made.issued });
  } catch (error) {
    process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
