/**
 * Examples for the teachers' markup gallery (/dashboard/teacher/markup):
 * content, like template scenes, written so every kanji has its reading.
 * `labelKey` names the explanation in the Markup catalogue namespace.
 */
export const MARKUP_EXAMPLES = [
  { labelKey: "lineBreak", source: "１|行目(ぎょうめ)||２|行目(ぎょうめ)" },
  { labelKey: "ruby", source: "|水溶液(すい・よう・えき)を|観察(かん・さつ)する" },
  { labelKey: "groupRuby", source: "|今日(きょう)は|上手(じょうず)に|書(か)けた" },
  { labelKey: "math", source: "|二次方程式(にじほうていしき) `x^2 - 5x + 6 = 0` の|解(かい)は `x = 2, 3`" },
  { labelKey: "fraction", source: "`\\frac{1}{2} + \\frac{1}{3} = \\frac{5}{6}`" },
  { labelKey: "color", source: "{red:|赤(あか)}・{blue:|青(あお)}・{green:|緑(みどり)}・{accent-orange:オレンジ}" },
  { labelKey: "lightColor", source: "{yellow:きいろ}と{white:しろ}は|暗(くら)い|下地(したじ)の|上(うえ)に|出(で)ます" },
  { labelKey: "bold", source: "**|大切(たいせつ)なところ**を|太字(ふとじ)に" },
  { labelKey: "underline", source: "__|下線(かせん)__を|引(ひ)く" },
  { labelKey: "nested", source: "{red:**|重(おも)さ**}は|変(か)わらない" },
  { labelKey: "literal", source: "**|閉(と)じていない|記号(きごう)はそのまま" },
  { labelKey: "mathError", source: "`\\frac{1}{` は|表示(ひょうじ)できない|式(しき)" },
] as const;
