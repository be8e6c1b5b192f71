/** `npm run i18n:check`: fails when the display-language catalogues disagree (see platform/i18n/check.ts). */
import { checkCatalogues } from "@/platform/i18n/check";
import { DISPLAY_LANGUAGES } from "@/platform/i18n/languages";
import { loadMessages } from "@/platform/i18n/messages";

const problems = checkCatalogues({
  ja: loadMessages("ja"),
  "ja-ruby": loadMessages("ja-ruby"),
  "ja-kana": loadMessages("ja-kana"),
});
if (problems.length > 0) {
  console.error(`i18n: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`i18n: ${DISPLAY_LANGUAGES.length} catalogues agree`);
