import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { decryptCode } from "@/platform/auth/signin-code-crypto";
import { e2eDb, makeSchool, signinCodeKey, TEST_PASSWORD } from "./db";
import { expectAccessible, expectNotification, signInAs } from "./helpers";

const FIXTURES = "tests/fixtures/oneroster";
// one set is read at a time per server (another gets "busy"): this file's tests run one after another
test.describe.configure({ mode: "default" });

/**
 * A copy of a fixture set whose sourcedIds and e-mail addresses are this test's own (the e2e
 * database is shared by every test): the same new id for the same old one across the files.
 */
function ownCopy(sets: string[], ids = new Map<string, string>(), tag: string = randomUUID().slice(0, 8)) {
  const folders = sets.map((set) => {
    const from = path.resolve(FIXTURES, set);
    const dir = mkdtempSync(path.join(tmpdir(), "roster-"));
    for (const name of readdirSync(from)) {
      const text = readFileSync(path.join(from, name), "utf8")
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
          if (!ids.has(id)) ids.set(id, randomUUID());
          return ids.get(id)!;
        })
        .replace(/@example\.jp/g, `@${tag}.example.jp`);
      writeFileSync(path.join(dir, name), text);
    }
    return readdirSync(dir).map((n) => path.join(dir, n));
  });
  return { folders, ids, tag };
}

/**
 * A set's check and its apply are worked through by a child process at idle CPU priority (it waits
 * while the server, or anything else on the machine, has work): up to a minute on a loaded machine.
 */
const ROSTER_WORK_MS = 60_000;

async function check(page: Page, files: string[]) {
  await page.getByTestId("roster-file").setInputFiles(files);
  await page.getByTestId("roster-check").click();
  await expect(page.getByTestId("roster-plan")).toBeVisible({ timeout: ROSTER_WORK_MS });
}

const expectApplied = (page: Page) =>
  expect(page.getByTestId("roster-plan")).toHaveAttribute("data-applied", "1", { timeout: ROSTER_WORK_MS });

test("a manager imports a OneRoster set through the browser: preview, apply with progress; a student signs in with the new card and shows with their reading; a delta moves a student", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const { manager } = await makeSchool(0);
  const {
    folders: [bulk, delta],
    ids,
    tag,
  } = ownCopy(["bulk-jhs", "delta-jhs"]);
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/roster");
  await expectAccessible(page);

  // the dry run: per school, what would be created; nothing is written yet
  await check(page, bulk!);
  const school = page.getByTestId("roster-school");
  await expect(school).toHaveCount(1);
  await expect(school.locator("h3")).toHaveText("まなびや市立みなみ中学校");
  const created = Number(await school.locator('tr[data-kind="students"] td[data-action="create"]').textContent());
  expect(created).toBeGreaterThan(0);
  expect(
    await e2eDb().school.count({ where: { academyId: manager.academyId!, name: "まなびや市立みなみ中学校" } }),
  ).toBe(0);
  await school.getByTestId("roster-preview-students").locator("summary").click();
  await expect(school.getByTestId("roster-preview-students")).toContainText("1年1組1番");
  await expectAccessible(page);

  // apply: a confirmation, then the result
  await page.getByTestId("roster-apply").click();
  await page.getByTestId("confirm-ok").click();
  await expectNotification(page, "名簿を反映しました。");
  await expectApplied(page);
  const made = await e2eDb().school.findFirstOrThrow({
    where: { academyId: manager.academyId!, name: "まなびや市立みなみ中学校" },
    select: { id: true },
  });
  expect(await e2eDb().user.count({ where: { schoolId: made.id, role: "student" } })).toBe(created);

  // the same set again changes nothing
  await check(page, bulk!);
  await expect(page.getByTestId("roster-plan")).toContainText("変更はありません");
  await expect(page.getByTestId("roster-apply")).toHaveCount(0);

  // a student of the set signs in with their new card, and their name shows with its reading
  const sato = await e2eDb().user.findFirstOrThrow({
    where: { schoolId: made.id, name: { contains: "佐藤" } },
    select: { id: true, nameKana: true, signinCodes: { where: { revokedAt: null }, select: { codeEncrypted: true } } },
  });
  expect(sato.nameKana).toMatch(/さとう/);
  const kid = await (await browser.newContext()).newPage();
  try {
    await kid.goto(`/auth/auth-with-code?code=${decryptCode(sato.signinCodes[0]!.codeEncrypted, signinCodeKey())}`);
    await expect(kid.getByTestId("code-confirm")).toBeVisible();
    // a student's display language shows names with their reading: 佐藤(さとう) 太郎(たろう)
    await expect(kid.getByTestId("code-name").locator("rt").first()).toHaveText(/さとう/);
  } finally {
    await kid.context().close();
  }

  // a delta set: only what it names changes (a new student, one marked tobedeleted disabled, answers kept)
  await check(page, delta!);
  await expect(page.getByTestId("roster-problems")).toHaveCount(0);
  await page.getByTestId("roster-apply").click();
  await page.getByTestId("confirm-ok").click();
  await expectApplied(page);
  expect(await e2eDb().user.count({ where: { schoolId: made.id, role: "student", disabled: true } })).toBeGreaterThan(
    0,
  );

  // a delta that moves 鈴木 さくら from 1年1組2番 to 2年1組9番: the same account, their answers kept
  const {
    folders: [move],
  } = ownCopy([moveDelta()], ids, tag);
  await check(page, move!);
  await expect(page.getByTestId("roster-problems")).toHaveCount(0);
  await page.getByTestId("roster-apply").click();
  await page.getByTestId("confirm-ok").click();
  await expectApplied(page);
  const suzuki = await e2eDb().user.findFirstOrThrow({
    where: { schoolId: made.id, name: { contains: "鈴木" } },
    select: { disabled: true, student: { select: { grade: true, className: true, number: true } } },
  });
  expect(suzuki).toEqual({ disabled: false, student: { grade: 2, className: "1", number: 9 } });
});

/** A delta set (in the fixtures' ids) moving student 12 from class 1 (1年1組) to class 2 (2年1組) as 出席番号 9. */
function moveDelta(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "roster-move-"));
  const bulk = path.join(FIXTURES, "bulk-jhs");
  const stamp = "2026-06-01T00:00:00Z";
  writeFileSync(path.join(dir, "manifest.csv"), readFileSync(path.join(FIXTURES, "delta-jhs", "manifest.csv")));
  // the student's role says which school they belong to
  const [rolesHead, ...roles] = readFileSync(path.join(bulk, "roles.csv"), "utf8").trim().split("\n");
  const role = roles
    .find((l) => l.startsWith('"60000000-0000-4000-8000-000000000012"'))!
    .replace('"",""', `"active","${stamp}"`);
  writeFileSync(path.join(dir, "roles.csv"), `${rolesHead}\n${role}\n`);
  const [usersHead, ...users] = readFileSync(path.join(bulk, "users.csv"), "utf8").trim().split("\n");
  const user = users
    .find((l) => l.startsWith('"50000000-0000-4000-8000-000000000012"'))!
    .replace('"","","true"', `"active","${stamp}","true"`)
    .replace('"J1"', '"J2"')
    .replace('"40000000-0000-4000-8000-000000000001"', '"40000000-0000-4000-8000-000000000002"');
  writeFileSync(path.join(dir, "users.csv"), `${usersHead}\n${user}\n`);
  const [enrollHead] = readFileSync(path.join(bulk, "enrollments.csv"), "utf8").split("\n");
  const school = "20000000-0000-4000-8000-000000000002";
  const student = "50000000-0000-4000-8000-000000000012";
  writeFileSync(
    path.join(dir, "enrollments.csv"),
    [
      enrollHead,
      `"70000000-0000-4000-8000-000000000012","tobedeleted","${stamp}","40000000-0000-4000-8000-000000000001","${school}","${student}","student","false","","","2","true"`,
      `"70000000-0000-4000-8000-000000000099","active","${stamp}","40000000-0000-4000-8000-000000000002","${school}","${student}","student","false","","","9","true"`,
    ].join("\n") + "\n",
  );
  return dir;
}

test("a bad set lists every problem by file, line and column and offers nothing to apply; the export downloads a zip", async ({
  page,
}) => {
  const { manager } = await makeSchool(0);
  const {
    folders: [bulk],
  } = ownCopy(["bulk-jhs"]);
  // a bad enumeration on the third line of classes.csv
  const classes = bulk!.find((f) => f.endsWith("classes.csv"))!;
  const lines = readFileSync(classes, "utf8").split("\n");
  lines[2] = lines[2]!.replace('"homeroom"', '"homeroomz"');
  writeFileSync(classes, lines.join("\n"));
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/roster");
  await check(page, bulk!);
  const problem = page.getByTestId("roster-problem").filter({ hasText: "homeroomz" });
  await expect(problem.first()).toHaveAttribute("data-file", "classes.csv");
  await expect(problem.first()).toHaveAttribute("data-line", "3");
  await expect(problem.first()).toHaveAttribute("data-column", "classType");
  await expect(page.getByTestId("roster-apply")).toHaveCount(0);
  await expectAccessible(page);

  const downloading = page.waitForEvent("download");
  await page.getByTestId("roster-export").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^oneroster-\d{4}-\d{2}-\d{2}\.zip$/);
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
});

test("a student whose homeroom enrollment has no 出席番号 is shown as a warning at that enrollment, and the set can still be applied", async ({
  page,
}) => {
  const { manager } = await makeSchool(0);
  const {
    folders: [bulk],
  } = ownCopy(["bulk-jhs"]);
  // the first student's enrollment (third line of enrollments.csv) without its 番号
  const enrollments = bulk!.find((f) => f.endsWith("enrollments.csv"))!;
  const lines = readFileSync(enrollments, "utf8").split("\r\n");
  lines[2] = lines[2]!.replace('"student","false","","","1","true"', '"student","false","","","","true"');
  writeFileSync(enrollments, lines.join("\r\n"));
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/roster");
  await check(page, bulk!);
  const warning = page.getByTestId("roster-warning");
  await expect(warning).toHaveCount(1);
  await expect(warning).toHaveAttribute("data-file", "enrollments.csv");
  await expect(warning).toHaveAttribute("data-line", "3");
  await expect(warning).toHaveAttribute("data-column", "metadata.jp.ShussekiNo");
  await expect(page.getByTestId("roster-warnings")).toContainText("出席番号");
  await expect(page.getByTestId("roster-problems")).toHaveCount(0);
  await expect(page.getByTestId("roster-apply")).toBeVisible();
  await expectAccessible(page);
});

test("a school that added its students by hand adopts OneRoster: the preview shows the link, the linked student keeps their account and signs in with the same password", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const {
    manager,
    school,
    students: [hand],
  } = await makeSchool(1);
  const {
    folders: [bulk],
    ids,
  } = ownCopy(["bulk-jhs"]);
  // the set names the school as the product does, and gives 佐藤 太郎 (1年1組1番) the hand-added student's e-mail
  const edit = (name: string, change: (text: string) => string) => {
    const file = bulk!.find((f) => f.endsWith(name))!;
    writeFileSync(file, change(readFileSync(file, "utf8")));
  };
  edit("orgs.csv", (t) => t.replace("まなびや市立みなみ中学校", school.name));
  const sato = ids.get("50000000-0000-4000-8000-000000000011")!;
  edit("users.csv", (t) =>
    t
      .split("\n")
      .map((l) =>
        l.startsWith(`"${sato}"`) ? l.replace('"太郎","佐藤","","",""', `"太郎","佐藤","","","${hand!.email}"`) : l,
      )
      .join("\n"),
  );
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/roster");

  await check(page, bulk!);
  const row = page.getByTestId("roster-school").locator('tr[data-kind="students"]');
  await expect(row.locator('td[data-action="link"]')).toHaveText("1");
  await page.getByTestId("roster-apply").click();
  await page.getByTestId("confirm-ok").click();
  await expectApplied(page);
  const linked = await e2eDb().user.findUniqueOrThrow({
    where: { id: hand!.id },
    select: { sourcedId: true, schoolId: true, name: true },
  });
  expect(linked).toEqual({ sourcedId: sato, schoolId: school.id, name: "佐藤 太郎" });

  const kid = await (await browser.newContext()).newPage();
  try {
    await signInAs(kid, hand!.email!, TEST_PASSWORD);
    await expect(kid).toHaveURL(/\/dashboard\/student\/home$/);
  } finally {
    await kid.context().close();
  }
});

test("the export offers the three profiles, starts at the academy's last imported one, and downloads the profile chosen", async ({
  page,
}) => {
  const { manager, academy } = await makeSchool(1);
  await e2eDb().academy.update({ where: { id: academy.id }, data: { rosterProfile: "1.2.1" } });
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/roster");
  const choice = page.getByTestId("roster-export-profile");
  await expect(choice).toHaveValue("1.2.1");
  await expect(choice.locator("option")).toHaveText([
    /^OneRoster 1\.2（/,
    /^OneRoster 1\.2\.1（/,
    /^OneRoster 1\.2_JP（/,
  ]);
  await choice.selectOption("1.2_JP");
  await expectAccessible(page);

  const downloading = page.waitForEvent("download");
  await page.getByTestId("roster-export").click();
  const files = unzipSync(new Uint8Array(readFileSync(await (await downloading).path())));
  const text = (name: string) => new TextDecoder().decode(files[name]).split("\r\n");
  expect(text("manifest.csv")).toContain('"oneroster.version","1.2_JP"');
  expect(text("enrollments.csv")[0]!.endsWith(",metadata.jp.shussekiNo,metadata.jp.publicFlg")).toBe(true);
  expect(text("users.csv")[0]!.split(",")).toHaveLength(29);
  expect(text("users.csv")).toHaveLength(4); // header, the teacher, the student, the final line end
});
