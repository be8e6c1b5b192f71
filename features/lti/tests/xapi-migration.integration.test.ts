/**
 * The learning records stored before a statement's row was written once (its JSON in xapi_statement_bodies, its state
 * a column rewritten when sent) keep what they were through the migration that brings in xapi_statements_waiting:
 * the waiting ones wait, in their order and with the LRS's last answer; the sent ones are sent, the parked and failed
 * ones keep their outcome and answer; every statement reads as the JSON it was. And the statements sent before the
 * count of sent statements was brought in are counted by its migration, each academy's.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { LRS_CARD_SQL } from "@/features/lti/server/lrs-queries";
import { statementJson } from "@/features/lti/server/xapi-body";
import { listMigrations, migrate } from "../../../scripts/lib/migrate";
import { sql } from "../../../tests/support/backup-helpers";
import { dropDatabase, emptyDatabase } from "../../../tests/support/helpers";

const MIGRATION = "20261204090000_xapi_statements_waiting_table";
const made: string[] = [];

afterAll(async () => {
  for (const name of made) await dropDatabase(name);
});

describe("the migration to statements written once", () => {
  it("keeps each statement's state, last answer, order and JSON", async () => {
    const all = await listMigrations();
    const at = all.findIndex((m) => m.name === MIGRATION);
    expect(at).toBeGreaterThan(0);
    const db = await emptyDatabase("xapimig");
    made.push(db.name);
    await migrate(db.url, all.slice(0, at));

    const [academy] = await sql<{ id: string }>(
      db.url,
      `insert into academies (id, name, name_kana, updated_at) values (gen_random_uuid(), '移行', 'いこう', now())
       returning id::text`,
    );
    const old = [
      { verb: "answered", state: "waiting", error: "503 busy" },
      { verb: "initialized", state: "waiting", error: null },
      { verb: "completed", state: "sent", error: null },
      { verb: "answered", state: "parked", error: "400 bad" },
      { verb: "answered", state: "failed", error: "no answer" },
    ].map((s) => ({ ...s, id: randomUUID(), statement: { id: randomUUID(), verb: s.verb, text: "ひらがな" } }));
    for (const s of old) {
      await sql(
        db.url,
        `insert into xapi_statements (id, academy_id, activity_id, user_id, verb, state, last_error, created_at)
         values ($1, $2, $1, $1, $3, $4, $5, '2026-11-30T09:00:00Z')`,
        [s.id, academy!.id, s.verb, s.state, s.error],
      );
      await sql(db.url, `insert into xapi_statement_bodies (id, statement) values ($1, $2)`, [s.id, s.statement]);
    }

    await migrate(db.url);

    const rows = await sql<{ id: string; outcome: string | null; last_error: string | null; body: Buffer }>(
      db.url,
      `select id::text, outcome, last_error, body from xapi_statements`,
    );
    const waiting = await sql<{ id: string; rank: number; last_error: string | null }>(
      db.url,
      `select id::text, rank, last_error from xapi_statements_waiting order by academy_id, created_at, rank, id`,
    );
    const row = (id: string) => rows.find((r) => r.id === id)!;
    // in one instant, initialized before answered
    expect(waiting).toEqual([
      { id: old[1]!.id, rank: 0, last_error: null },
      { id: old[0]!.id, rank: 1, last_error: "503 busy" },
    ]);
    for (const s of old) {
      expect(JSON.parse(statementJson(row(s.id).body))).toEqual(s.statement);
      const outcome = s.state === "parked" || s.state === "failed" ? s.state : null;
      expect({ outcome: row(s.id).outcome, lastError: row(s.id).last_error }).toEqual({
        outcome,
        lastError: outcome ? s.error : null,
      });
    }
    const tables = await sql<{ n: number }>(
      db.url,
      `select count(*)::int as n from information_schema.tables where table_name = 'xapi_statement_bodies'`,
    );
    expect(tables).toEqual([{ n: 0 }]);
  });
});

describe("the migration to a count of statements sent", () => {
  it("counts each academy's statements sent so far", async () => {
    const all = await listMigrations();
    const at = all.findIndex((m) => m.name === "20261205090000_xapi_sent_counts");
    expect(at).toBeGreaterThan(0);
    const db = await emptyDatabase("xapisent");
    made.push(db.name);
    await migrate(db.url, all.slice(0, at));

    const academy = async (name: string) =>
      (
        await sql<{ id: string }>(
          db.url,
          `insert into academies (id, name, name_kana, updated_at) values (gen_random_uuid(), $1, 'いこう', now())
           returning id::text`,
          [name],
        )
      )[0]!.id;
    const [one, two, none] = [await academy("一"), await academy("二"), await academy("三")];
    const states: [string, "sent" | "waiting" | "parked" | "failed"][] = [
      [one, "sent"],
      [one, "sent"],
      [one, "waiting"],
      [one, "parked"],
      [one, "failed"],
      [two, "sent"],
      [none, "waiting"],
    ];
    for (const [academyId, state] of states) {
      const id = randomUUID();
      const outcome = state === "parked" || state === "failed" ? state : null;
      await sql(
        db.url,
        `insert into xapi_statements (id, academy_id, activity_id, user_id, verb, body, outcome, created_at)
         values ($1, $2, $1, $1, 'answered', convert_to('{}', 'UTF8'), $3, '2026-12-01T09:00:00Z')`,
        [id, academyId, outcome],
      );
      if (state === "waiting")
        await sql(
          db.url,
          `insert into xapi_statements_waiting (id, academy_id, created_at, rank) values ($1, $2, '2026-12-01T09:00:00Z', 1)`,
          [id, academyId],
        );
    }

    await migrate(db.url);

    const counts = await sql<{ academy_id: string; sent: string }>(
      db.url,
      `select academy_id::text, sent from xapi_sent_counts`,
    );
    expect(new Map(counts.map((c) => [c.academy_id, Number(c.sent)]))).toEqual(
      new Map([
        [one, 2],
        [two, 1],
      ]),
    );
    // the manager's card: waiting, sent, parked or failed
    const card = async (academyId: string) =>
      (await sql<{ waiting: string; sent: string; failed: string }>(db.url, LRS_CARD_SQL, [academyId])).map((c) =>
        [c.waiting, c.sent, c.failed].map(Number),
      );
    expect(await card(one)).toEqual([[1, 2, 2]]);
    expect(await card(none)).toEqual([[1, 0, 0]]);
  });
});
