import type { Browser } from "@playwright/test";
import { FULL_CHROMIUM } from "../../scripts/lib/chromium";

/** Debian's full Chromium for a bench row's pages: no sandbox, GPU or background traffic of its own. */
export async function launchBenchBrowser(): Promise<Browser> {
  const { chromium } = await import("@playwright/test");
  return chromium.launch({
    executablePath: FULL_CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}
