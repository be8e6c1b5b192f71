import { expect, type Page, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/** Twelve students whose names hold no digit, so that a search for a 番号 can only match the 番号. */
const NAMES: [string, string][] = [
  ["佐藤 健", "さとう けん"],
  ["鈴木 愛", "すずき あい"],
  ["高橋 翔", "たかはし しょう"],
  ["田中 結衣", "たなか ゆい"],
  ["伊藤 蓮", "いとう れん"],
  ["渡辺 陽菜", "わたなべ ひな"],
  ["山本 大和", "やまもと やまと"],
  ["中村 葵", "なかむら あおい"],
  ["小林 湊", "こばやし みなと"],
  ["加藤 凛", "かとう りん"],
  ["吉田 樹", "よしだ いつき"],
  ["山田 芽依", "やまだ めい"],
];

async function schoolWithNamedStudents() {
  const made = await makeSchool(NAMES.length);
  await Promise.all(
    made.students.map((s, i) =>
      e2eDb().user.update({ where: { id: s.id }, data: { name: NAMES[i]![0], nameKana: NAMES[i]![1] } }),
    ),
  );
  return made;
}

const rows = (page: Page) => page.getByTestId("student-table").locator("tbody tr");
/** The 番号 of each row, in the order shown (the number closing the 年・組・番号 cell). */
const numbers = (page: Page) =>
  rows(page).evaluateAll((trs) =>
    trs.map((tr) => Number(/(\d+)\s*$/.exec(tr.querySelector("td.num")?.textContent ?? "")?.[1])),
  );

test.describe("the students table", () => {
  for (const lang of ["ja", "ja-ruby", "ja-kana"] as const) {
    test(`${lang}: at least 10 students fully on a 1366×768 screen, with compact columns`, async ({ page }) => {
      await page.setViewportSize({ width: 1366, height: 768 });
      const { teacher } = await schoolWithNamedStudents();
      await signInAs(page, teacher.email!, TEST_PASSWORD);
      // after sign-in: signing in sets the person's own language (staff: plain Japanese)
      await page.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
      await page.goto("/dashboard/teacher/students");
      await expect(rows(page)).toHaveCount(NAMES.length);
      const shown = await page.evaluate(() => {
        const below = document.querySelector("header.top-bar")!.getBoundingClientRect().bottom;
        return [...document.querySelectorAll("[data-testid=student-table] tbody tr")].filter((tr) => {
          const r = tr.getBoundingClientRect();
          return r.top >= below && r.bottom <= window.innerHeight;
        }).length;
      });
      expect(shown).toBeGreaterThanOrEqual(10);
      // the name is shown with its reading
      if (lang === "ja-ruby")
        await expect(rows(page).first().getByRole("rowheader").locator("rt").first()).toHaveText("さとう");
      else await expect(rows(page).first().getByRole("rowheader")).toContainText("さとう");
      // a row says whether the student has a sign-in code
      await expect(rows(page).first().getByTestId("code-state")).toHaveAttribute("data-state", "active");
    });
  }

  test("sorts by 番号 and by name from the column headers (aria-sort), and searches by name, reading and 番号", async ({
    page,
  }) => {
    await page.context().addCookies([{ name: "manabiya-lang", value: "ja", url: BASE_URL }]);
    const { teacher } = await schoolWithNamedStudents();
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const byNumber = page.getByRole("columnheader", { name: /番号/ });
    const byName = page.getByRole("columnheader", { name: /^名前/ });
    await expect(byNumber).toHaveAttribute("aria-sort", "ascending");
    await expect.poll(() => numbers(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

    await byNumber.getByRole("link").click();
    await expect(byNumber).toHaveAttribute("aria-sort", "descending");
    await expect.poll(() => numbers(page)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);

    await byName.getByRole("link").click();
    await expect(byName).toHaveAttribute("aria-sort", "ascending");
    await expect(byNumber).not.toHaveAttribute("aria-sort", /./);
    const inReadingOrder = NAMES.map(([, kana], i) => ({ kana, n: i + 1 }))
      .sort((a, b) => (a.kana < b.kana ? -1 : 1))
      .map((s) => s.n);
    await expect.poll(() => numbers(page)).toEqual(inReadingOrder);
    await byName.getByRole("link").click();
    await expect(byName).toHaveAttribute("aria-sort", "descending");
    await expect.poll(() => numbers(page)).toEqual([...inReadingOrder].reverse());

    const search = page.getByRole("searchbox");
    for (const [text, expected] of [
      ["田中", [4]], // name
      ["やま", [7, 12]], // reading
      ["7", [7]], // 番号
      ["１１", [11]], // 番号 typed in full-width digits
    ] as const) {
      await search.fill(text);
      await search.press("Enter");
      await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(text)}`));
      await expect.poll(() => numbers(page).then((n) => n.sort((a, b) => a - b))).toEqual(expected);
    }
  });

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`the bulk actions stay in view and on top while scrolling the table at ${viewport.width} px`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      const { teacher, students } = await makeSchool(30);
      await signInAs(page, teacher.email!, TEST_PASSWORD);
      await page.goto("/dashboard/teacher/students");
      await page.locator(`tr[data-email="${students[0]!.email}"]`).getByTestId("row-select").check();
      await page.locator(`tr[data-email="${students[1]!.email}"]`).getByTestId("row-select").check();
      for (const email of [students[15]!.email, students.at(-1)!.email]) {
        await page.locator(`tr[data-email="${email}"]`).scrollIntoViewIfNeeded();
        for (const id of ["selected-count", "bulk-print", "bulk-delete", "bulk-clear"]) {
          const target = page.getByTestId(id);
          await expect(target).toBeInViewport({ ratio: 1 });
          // on top: nothing (the top bar, the table) covers it
          expect(
            await target.evaluate((el) => {
              const r = el.getBoundingClientRect();
              return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
            }),
            id,
          ).toBe(true);
        }
      }
      await page.getByTestId("bulk-clear").click();
      await expect(page.getByTestId("bulk-bar")).toHaveCount(0);
    });
  }
});
