import ja from "@/messages/ja.json";
import jaKana from "@/messages/ja-kana.json";
import jaRuby from "@/messages/ja-ruby.json";
import type { DisplayLanguage } from "./languages";

export type Messages = typeof jaRuby;

const CATALOGUES: Record<DisplayLanguage, Messages> = { ja, "ja-ruby": jaRuby, "ja-kana": jaKana };

export function loadMessages(lang: DisplayLanguage): Messages {
  return CATALOGUES[lang];
}
