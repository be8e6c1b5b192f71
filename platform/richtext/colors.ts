/** docs/requirements.md §5 colour names. A bare accent name gets the `accent-` prefix. */
export const ACCENT_NAMES = ["red", "yellow", "green", "blue", "sky", "pink", "orange", "purple", "brown"] as const;
export const OWN_TOKENS = ["accent", "white", "light-gray", "gray", "black"] as const;

export const COLOR_TOKENS = [...ACCENT_NAMES.map((n) => `accent-${n}` as const), ...OWN_TOKENS] as const;
export type ColorToken = (typeof COLOR_TOKENS)[number];

/** Light colours are drawn on a dark chip so that text stays legible (WCAG AA). */
export const LIGHT_TOKENS: ReadonlySet<ColorToken> = new Set(["white", "light-gray", "accent-yellow", "accent-sky"]);

/** The design token for a colour name, or null when the name is not in the list. */
export function colorToken(name: string): ColorToken | null {
  if ((OWN_TOKENS as readonly string[]).includes(name)) return name as ColorToken;
  const bare = name.startsWith("accent-") ? name.slice("accent-".length) : name;
  return (ACCENT_NAMES as readonly string[]).includes(bare) ? (`accent-${bare}` as ColorToken) : null;
}
