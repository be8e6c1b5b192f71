/**
 * The save statement's plan (features/play/server/answer-writer.ts) reads stored answers
 * by key: the plan is made once per connection (a generic plan of a prepared
 * statement) and kept while the tables grow, so a scan that is cheap while
 * `responses` is small (a new database, the start of a term) would read the
 * whole table with every batch later on (docs/benchmarks.md "How the answer
 * path reached its targets").
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAVE_SQL, WRITER_PG_OPTIONS } from "@/features/play/server/answer-writer";
import { freshDatabase } from "../../../tests/support/helpers";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe("the save statement's plan", () => {
  const database = freshDatabase("answer_plan");
  let client: pg.Client;
  beforeAll(async () => {
    // as the answer endpoint's pool connects (features/play/server/answer-endpoint.ts)
    client = new pg.Client({ connectionString: database.url, options: WRITER_PG_OPTIONS });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it("probes stored answers by (respondent, scene) and scans no table, planned on a new database", async () => {
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `explain (generic_plan, format json) ${SAVE_SQL}`,
    );
    const nodes = nodesOf(rows[0]!["QUERY PLAN"][0].Plan);
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"])).toEqual([]);
    // responses: written by the insert, read (a retry, an older revision) only by its unique key
    const reads = nodes.filter((n) => n["Relation Name"] === "responses" && n["Node Type"] !== "ModifyTable");
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read["Node Type"]).toMatch(/^Index (Only )?Scan$/);
      expect(read["Index Cond"]).toMatch(/user_id = .*scene_id = /);
    }
  });
});
