import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectAccessible, signIn, storageStateOf } from "./helpers";
import { ROUTES } from "./routes";

const ROLES = ["student", "teacher", "manager"] as const;
const home = (role: string) => `/dashboard/${role}/home`;

function pagePatterns(dir = "app", prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      const segment = name.startsWith("(") ? "" : `/${name}`;
      out.push(...pagePatterns(full, prefix + segment));
    } else if (name === "page.tsx") {
      out.push(prefix || "/");
    }
  }
  return out;
}

test("every page route has a row in the access table", () => {
  expect(pagePatterns().sort()).toEqual(ROUTES.map((r) => r.pattern).sort());
});

for (const role of ROLES) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: storageStateOf(role) });
    // another role's page and a signed-out visit: the exact redirect of every page, for every role and signed out, is
    // tests/e2e/matrix.spec.ts's ("page …")
    for (const route of ROUTES.filter((r) => r.area === role)) {
      test(`${route.path}`, async ({ page }) => {
        // each area sends only the message namespaces its client components use (platform/ui/layout/client-messages.tsx)
        const missing: string[] = [];
        page.on("console", (m) => {
          if (m.text().includes("MISSING_MESSAGE")) missing.push(m.text());
        });
        const response = await page.goto(route.path);
        expect(response?.status()).toBe(200);
        await expect(page).toHaveURL(route.path);
        await expect(page.locator(".app-shell")).toHaveAttribute("data-role", role);
        await expect(page.getByTestId("guard-loading")).toHaveCount(0);
        await expectAccessible(page);
        expect(missing).toEqual([]);
      });
    }
    test("/dashboard goes to the own home", async ({ page }) => {
      await page.goto("/dashboard");
      await expect(page).toHaveURL(home(role));
    });
    test("an unknown path is a 404 with the error page", async ({ page }) => {
      const response = await page.goto(`/dashboard/${role}/no-such-page`);
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId("error-page")).toBeVisible();
    });
  });
}

test.describe("signed out", () => {
  test("/dashboard → student home → /signin", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(`/signin?from=${encodeURIComponent("/dashboard/student/home")}`);
  });
});

test.describe("from after sign-in", () => {
  for (const forged of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
    test(`a forged from (${forged}) is ignored`, async ({ page }) => {
      await page.goto(`/signin?from=${encodeURIComponent(forged)}`);
      await signIn(page, "teacher@example.com");
      await expect(page).toHaveURL(home("teacher"));
    });
  }
  test("a from in another role's area is ignored", async ({ page }) => {
    await page.goto(`/signin?from=${encodeURIComponent("/dashboard/manager/home")}`);
    await signIn(page, "student01@example.com");
    await expect(page).toHaveURL(home("student"));
  });
});

test.describe("public pages are accessible", () => {
  for (const route of ROUTES.filter((r) => r.area === "public" && r.path !== "/dashboard")) {
    test(`${route.path}`, async ({ page }) => {
      await page.goto(route.path);
      await expect(page.locator("main")).toBeVisible();
      await expectAccessible(page);
    });
  }
});
