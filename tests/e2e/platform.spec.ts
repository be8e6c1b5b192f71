import { expect, type Page, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { storageStateOf } from "./helpers";
import { ROUTES } from "./routes";

const APP = "まなびや";
/** The title of each screen in plain Japanese (ja-ruby shows the same text: a <title> carries no ruby). */
const TITLES: Record<string, string> = {
  "/": "サインイン",
  "/signin": "サインイン",
  "/auth/auth-with-code": "QRコードでサインイン",
  "/auth/forgot": "パスワードを忘れたとき",
  "/auth/reset": "パスワードの再設定",
  "/auth/second-factor": "確認コード",
  "/lti/refused": "学習eポータルからの起動",
  "/lti/open": "新しいウィンドウで開く",
  "/lti/deep-link": "ポータルに載せるアクティビティ",
  "/projector/[token]": "プロジェクター用の画面",
  "/demo/mailbox": "デモのメールボックス",
  "/dashboard/student/home": "ホーム",
  "/dashboard/teacher/home": "ホーム",
  "/dashboard/manager/home": "ホーム",
  "/dashboard/teacher/markup": "書式の書き方",
  "/dashboard/teacher/activities": "アクティビティの管理",
  "/dashboard/teacher/students": "生徒の管理",
  "/dashboard/teacher/readings": "学校の読み",
  "/dashboard/teacher/library": "ライブラリ",
  "/dashboard/manager/library": "ライブラリ",
  "/dashboard/manager/roster": "名簿の取り込みと書き出し",
  "/dashboard/manager/signin-log": "サインインの記録",
  "/dashboard/teacher/signins": "自分のサインインの記録",
  "/dashboard/teacher/activities/edit/[activityId]": "アクティビティの編集",
  "/dashboard/teacher/activities/preview/[activityId]": "プレビュー",
  "/dashboard/manager/activities/edit/[schoolId]/[activityId]": "アクティビティの編集",
  "/dashboard/manager/activities/preview/[schoolId]/[activityId]": "プレビュー",
  "/dashboard/teacher/activities/guide/[activityId]": "授業の進行",
  "/dashboard/manager/activities/guide/[schoolId]/[activityId]": "授業の進行",
  "/dashboard/teacher/activities/stats/[activityId]": "集計",
  "/dashboard/teacher/activities/members/[activityId]": "ポータルの名簿",
  "/dashboard/manager/activities/stats/[schoolId]/[activityId]": "集計",
  "/dashboard/teacher/activities/response/[activityId]/[studentId]": "生徒の回答",
  "/dashboard/manager/activities/response/[schoolId]/[activityId]/[studentId]": "生徒の回答",
  "/dashboard/teacher/activities/solo/[activityId]": "アクティビティ",
  "/dashboard/student/activities/solo/[activityId]": "アクティビティ",
  "/dashboard/student/activities/session/[activityId]": "授業に参加",
  "/dashboard/student/activities/response/[activityId]": "結果",
  "/dashboard/teacher/portfolio": "ポートフォリオ",
  "/dashboard/teacher/portfolio/[studentId]": "ポートフォリオ",
  "/dashboard/manager/schools": "学校の管理",
  "/dashboard/manager/schools/[schoolId]": "学校の先生と生徒",
  "/dashboard/manager/schools/[schoolId]/rollover": "年次更新",
  "/dashboard/manager/schools/[schoolId]/readings": "学校の読み",
  "/dashboard/manager/activities/[schoolId]": "学校のアクティビティ",
};

/** Console errors, uncaught errors and failed same-origin requests (e.g. a 404 favicon) while `act` runs. */
async function problemsWhile(page: Page, act: () => Promise<unknown>): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("response", (r) => {
    if (r.url().startsWith(BASE_URL) && r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  await act();
  return problems;
}

async function setLanguage(page: Page, lang: string) {
  await page.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
}

const head = (page: Page) =>
  page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
    icons: [...document.querySelectorAll('link[rel~="icon"], link[rel="apple-touch-icon"]')].map(
      (l) => (l as HTMLLinkElement).href,
    ),
    manifest: (document.querySelector('link[rel="manifest"]') as HTMLLinkElement | null)?.href ?? null,
  }));

test.describe("every screen: its own title, a description, icons, no console error", () => {
  test("each route has a title here", () => {
    const patterns = ROUTES.filter((r) => r.pattern !== "/dashboard").map((r) => r.pattern);
    expect(patterns.filter((p) => !(p in TITLES))).toEqual([]);
  });
  for (const area of ["public", "student", "teacher", "manager"] as const) {
    test.describe(area, () => {
      if (area !== "public") test.use({ storageState: storageStateOf(area) });
      for (const route of ROUTES.filter((r) => r.area === area && r.pattern !== "/dashboard")) {
        test(route.path, async ({ page }) => {
          await setLanguage(page, "ja");
          const problems = await problemsWhile(page, async () => {
            const res = await page.goto(route.path);
            expect(res?.status()).toBe(200);
            await page.waitForLoadState("load");
            const h = await head(page);
            expect.soft(h.title).toBe(`${TITLES[route.pattern]} | ${APP}`);
            expect.soft(h.description.length).toBeGreaterThan(10);
            expect.soft(h.manifest).toBe(`${BASE_URL}/manifest.webmanifest`);
            expect.soft(h.icons.length).toBeGreaterThan(0);
            for (const icon of h.icons) {
              const r = await page.request.get(icon);
              expect(r.status(), icon).toBe(200);
              expect(r.headers()["content-type"]).toMatch(/^image\//);
            }
          });
          expect(problems).toEqual([]);
        });
      }
    });
  }
});

test.describe("titles in the three display languages", () => {
  test.use({ storageState: storageStateOf("teacher") });
  for (const [lang, title, description] of [
    ["ja", "生徒の管理 | まなびや", /学校の授業/],
    ["ja-ruby", "生徒の管理 | まなびや", /学校の授業/],
    ["ja-kana", "せいとの かんり | まなびや", /がっこうの じゅぎょう/],
  ] as const) {
    test(`${lang}: plain text, no markup${lang === "ja-kana" ? ", no kanji" : ""}`, async ({ page }) => {
      await setLanguage(page, lang);
      await page.goto("/dashboard/teacher/students");
      const h = await head(page);
      expect(h.title).toBe(title);
      expect(h.description).toMatch(description);
      expect(h.description).not.toMatch(/[|()（）]/);
      if (lang === "ja-kana") expect(`${h.title}${h.description}`).not.toMatch(/\p{Script=Han}/u);
    });
  }
});

test.describe("a tablet can pin the app", () => {
  test("favicon.ico, apple-touch-icon and the manifest with 192 and 512 px icons, standalone, the brand colour", async ({
    request,
  }) => {
    const favicon = await request.get("/favicon.ico");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    const res = await request.get("/manifest.webmanifest");
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({
      name: APP,
      short_name: APP,
      start_url: "/dashboard",
      display: "standalone",
      theme_color: "#1f7a4d",
    });
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && (i.purpose ?? "any").includes("any"));
      expect(icon, `${size}px icon`).toBeDefined();
      const png = await request.get(icon!.src);
      expect(png.status()).toBe(200);
      expect(png.headers()["content-type"]).toBe("image/png");
      const body = await png.body();
      // the PNG header's width and height
      expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([size, size]);
    }
  });
});
