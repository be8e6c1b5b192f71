/**
 * The statements' one order and the queue's look-up: the download of an activity's statements lists them in the
 * order the LRS receives them (made first; in one instant initialized, answered, completed; then id), across its
 * pages of 500; the academies with statements waiting, asked for every 30 s, come from the waiting statements' index,
 * not from every statement; and a delivery reads its next batch from that index in that order, not every waiting
 * statement sorted.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import {
  ACADEMIES_WAITING_SQL,
  academiesWaiting,
  activityStatementLines,
  NEXT_BATCH_SQL,
} from "@/features/lti/server/lrs-queries";
import { createAcademy, uniqueTag } from "../../../prisma/seed/factories";
import { statementJson } from "@/features/lti/server/xapi-body";
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

  it("a statement stored before statements were deflated (its JSON's text, as its migration kept it) is read as it is", async () => {
    const own = randomUUID();
    const id = randomUUID();
    await storeStatementRows([
      { id, academyId, activityId: own, userId: randomUUID(), verb: "answered", statement: {} },
    ]);
    await db()
      .$executeRaw`update xapi_statements set body = convert_to(${`{"id": "${id}", "verb": "answered"}`}, 'UTF8') where id = ${id}::uuid`;
    const lines: string[] = [];
    for await (const line of activityStatementLines(own)) lines.push(line);
    expect(lines).toEqual([`{"id": "${id}", "verb": "answered"}\n`]);
  });

  it("the academies with statements waiting come from the waiting statements' index, each once", async () => {
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
    expect(plan.map((p) => p["QUERY PLAN"]).join("\n")).toMatch(/Index (Only )?Scan using xapi_statements_waiting_idx/);
  });

  it("a delivery reads its next 50 statements in order from the waiting statements' index, not all 600 waiting, sorted", async () => {
    const academy = await createAcademy(db(), { name: `B${uniqueTag()}`, nameKana: "びー" });
    const at = Date.parse("2026-11-30T09:00:00.000Z");
    const verbs = ["completed", "answered", "initialized"] as const;
    const rows = Array.from({ length: 600 }, (_, n) => ({
      ...{ id: randomUUID(), academyId: academy.id, activityId: randomUUID(), userId: randomUUID() },
      ...{ verb: verbs[n % 3]!, statement: { n }, createdAt: new Date(at + Math.floor(n / 3)) },
    }));
    await storeStatementRows(rows);
    await db().$executeRawUnsafe("analyze xapi_statements, xapi_statements_waiting");
    const batch = await db().$queryRawUnsafe<{ id: string; body: Uint8Array }[]>(NEXT_BATCH_SQL, academy.id, 50);
    // in one instant: initialized, answered, completed
    const expected = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || rank(a) - rank(b));
    expect(batch.map((r) => r.id)).toEqual(expected.slice(0, 50).map((r) => r.id));
    expect(batch.map((r) => JSON.parse(statementJson(r.body)))).toEqual(expected.slice(0, 50).map((r) => r.statement));
    const [explained] = await db().$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
      `explain (analyze, format json) ${NEXT_BATCH_SQL}`,
      academy.id,
      50,
    );
    const reads = scansOf(explained!["QUERY PLAN"][0].Plan, "xapi_statements_waiting");
    expect(reads.map((r) => [r["Index Name"], r["Actual Rows"]])).toEqual([["xapi_statements_waiting_idx", 50]]);
  });
});

const rank = (r: { verb: string }) => ["initialized", "answered", "completed"].indexOf(r.verb);

interface PlanNode {
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  Plans?: PlanNode[];
}

/** The plan's nodes that read `table`. */
const scansOf = (node: PlanNode, table: string): PlanNode[] => [
  ...(node["Relation Name"] === table ? [node] : []),
  ...(node.Plans ?? []).flatMap((child) => scansOf(child, table)),
];
