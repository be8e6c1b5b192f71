/**
 * The statements' one order and the queue's look-up: the download of an activity's statements lists them in the
 * order the LRS receives them (made first; in one instant initialized, answered, completed; then id), across its
 * pages of 500; and the academies with statements waiting, asked for every 30 s, come from the (state, academy_id)
 * index, not from every statement.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { ACADEMIES_WAITING_SQL, academiesWaiting, activityStatementLines } from "@/features/lti/server/lrs-queries";
import { createAcademy, uniqueTag } from "../../../prisma/seed/factories";
import { storeStatementRows } from "./xapi-class";

let academyId: string;
const activityId = randomUUID();

/** A UUID that sorts at `n` among the others (the id order runs against the verb order below). */
const idAt = (n: number) => `${String(n).padStart(8, "0")}-0000-4000-8000-000000000000`;

beforeAll(async () => {
  const tag = uniqueTag();
  academyId = (await createAcademy(db(), { name: `O${tag}`, nameKana: "おーだー" })).id;
});

async function download(): Promise<string[]> {
  const ids: string[] = [];
  for await (const line of activityStatementLines(activityId)) ids.push((JSON.parse(line) as { id: string }).id);
  return ids;
}

describe("xAPI statement order", () => {
  it("the download lists an activity's statements in the order the LRS receives them, across pages", async () => {
    const at = new Date("2026-11-20T01:02:03.004Z");
    const verbs = ["completed", "answered", "initialized"] as const;
    // 600 statements in one instant: by id the completed ones come first, by the delivery order last
    const rows = Array.from({ length: 600 }, (_, n) => {
      const id = idAt(n);
      const verb = verbs[Math.floor((n * 3) / 600)]!;
      return { id, academyId, activityId, userId: randomUUID(), verb, statement: { id, verb }, createdAt: at };
    });
    await storeStatementRows(rows);
    // made a millisecond later: last, though its id sorts second
    const later = "00000000-0000-4000-8000-000000000001";
    await storeStatementRows([
      {
        ...{ id: later, academyId, activityId, userId: randomUUID(), verb: "initialized" },
        ...{ statement: { id: later }, createdAt: new Date(at.getTime() + 1) },
      },
    ]);
    const expected = [...rows.slice(400), ...rows.slice(200, 400), ...rows.slice(0, 200)].map((r) => r.id);
    expect(await download()).toEqual([...expected, later]);
  });

  it("the academies with statements waiting come from the (state, academy_id) index, each once", async () => {
    const statement = (id: string) => ({
      id,
      academyId,
      activityId: randomUUID(),
      userId: randomUUID(),
      verb: "answered",
      statement: {},
    });
    await storeStatementRows([statement(randomUUID()), statement(randomUUID())]);
    expect((await academiesWaiting()).filter((a) => a === academyId)).toEqual([academyId]);
    const plan = await db().$transaction(async (tx) => {
      // as on a big table (the test's is small and not analysed): no whole-table or bitmap read
      await tx.$executeRawUnsafe("set local enable_seqscan = off");
      await tx.$executeRawUnsafe("set local enable_bitmapscan = off");
      return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`explain ${ACADEMIES_WAITING_SQL}`);
    });
    expect(plan.map((p) => p["QUERY PLAN"]).join("\n")).toMatch(
      /Index (Only )?Scan using xapi_statements_state_academy_id_idx/,
    );
  });
});
