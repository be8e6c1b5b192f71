/**
 * Debian's Chromium, as the project's tools start it (CHROMIUM_PATH moves it): the full browser, for Lighthouse, the
 * bench, the icons and the e2e's back/forward cache. The e2e tests themselves run in its headless shell
 * (tests/e2e/config.ts).
 */
export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
