/**
 * `npm run roster -- import` with the app's database behind a transaction pooler (PgBouncer 1.18 in
 * transaction mode: tests/support/pgbouncer.ts; DATABASE_URL through it, DATABASE_DIRECT_URL straight to the
 * database, which the command's migrations use): the set is imported, and imported again changes nothing.
 */
import { describe, expect, it } from "vitest";
import { runScript } from "../../../tests/support/admin-run";
import { freshDatabase } from "../../../tests/support/helpers";
import { throughPooler } from "../../../tests/support/pooler";

const db = freshDatabase("pooled_roster");
const BULK = "tests/fixtures/oneroster/bulk-jhs";

describe("the roster import behind a transaction pooler", () => {
  it("imports a set, and the same set again changes nothing", async () => {
    await db.prisma.academy.create({ data: { name: "まなびや市", nameKana: "まなびやし" } });
    const roster = () =>
      runScript(
        "tools/cli/roster.ts",
        throughPooler(db.url),
        ["import", BULK, "--academy", "まなびや市", "--json"],
        "",
        {
          DATABASE_DIRECT_URL: db.url,
        },
      );
    const first = await roster();
    expect(first, first.err).toMatchObject({ code: 0 });
    const counts = async () => ({
      users: await db.prisma.user.count(),
      classes: await db.prisma.rosterClass.count(),
      codes: await db.prisma.signinCode.count(),
    });
    const imported = await counts();
    expect(imported).toMatchObject({ users: 6, classes: 3 });
    const again = await roster();
    expect(again, again.err).toMatchObject({ code: 0 });
    const plan = JSON.parse(again.out.trimEnd().split("\n").at(-1)!) as { schools: { students: unknown }[] };
    expect(plan.schools[0]!.students).toEqual({ create: 0, update: 0, move: 0, disable: 0, link: 0 });
    expect(await counts()).toEqual(imported);
  }, 120_000);
});
