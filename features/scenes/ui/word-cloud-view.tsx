"use client";
import { useTranslations } from "next-intl";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** A word as a screen shows it: the console's also carry their key and whether the teacher hides them. */
export type ShownWord = { key?: string; word: string; n: number; hidden?: boolean };

/** A word's size: 1em for the fewest answers up to 3.2em for the most, by the square root (the area grows with the count). */
const sizeOf = (n: number, most: number) => `${(1 + 2.2 * Math.sqrt(n / Math.max(1, most))).toFixed(2)}em`;

/** The grouped words as the statistics list them: most first, each with its count. */
export function WordCounts({ words }: { words: ShownWord[] }) {
  const t = useTranslations("Scenes.words");
  return (
    <ol className="stack word-counts" data-testid="word-counts">
      {words.map((w) => (
        <li key={w.key ?? w.word} data-testid="word-count" data-count={w.n}>
          <span>{w.word}</span>{" "}
          <span className="muted">
            <RichTextClient text={t("wordCount", { count: w.n })} />
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * A word cloud: the words the class may see, each sized by how many sent it, as a list (a screen reader reads each
 * word and its count). `onHide` (the teacher's console): every word listed with its 「隠す」 / 「出す」 toggle, the
 * hidden ones kept out of the cloud as they are out of the projector's state.
 */
export function WordCloudResults({
  words,
  onHide,
}: {
  words: ShownWord[];
  onHide?: (key: string, hidden: boolean) => void;
}) {
  const t = useTranslations("Scenes.words");
  const shown = words.filter((w) => !w.hidden);
  const most = Math.max(1, ...shown.map((w) => w.n));
  return (
    <>
      <figure className="word-cloud" data-testid="word-cloud">
        <ul className="bare-list word-cloud-words" aria-label={t("wordCloud")}>
          {shown.map((w) => (
            <li key={w.key ?? w.word} data-testid="cloud-word" data-count={w.n} style={{ fontSize: sizeOf(w.n, most) }}>
              <span className="cloud-word">{w.word}</span>{" "}
              <span className="visually-hidden">
                <RichTextClient text={t("wordCount", { count: w.n })} />
              </span>
            </li>
          ))}
        </ul>
      </figure>
      {onHide ? <WordToggles words={words} onHide={onHide} /> : null}
    </>
  );
}

/** The console's list of every word with its count and its 「隠す」 toggle (pressed: hidden from the class). */
function WordToggles({ words, onHide }: { words: ShownWord[]; onHide: (key: string, hidden: boolean) => void }) {
  const t = useTranslations("Scenes.words");
  return (
    <section className="stack word-toggles" data-testid="word-toggles">
      <h3>
        <RichTextClient text={t("wordsManage")} />
      </h3>
      <ul className="bare-list stack">
        {words.map((w) => (
          <li key={w.key} className="row word-toggle" data-testid="word-toggle" data-hidden={Boolean(w.hidden)}>
            <span className={w.hidden ? "word-hidden" : undefined}>{w.word}</span>
            <span className="muted">
              <RichTextClient text={t("wordCount", { count: w.n })} />
            </span>
            <button
              type="button"
              className="button button-small"
              aria-pressed={Boolean(w.hidden)}
              data-testid="hide-word"
              onClick={() => w.key && onHide(w.key, !w.hidden)}
            >
              <RichTextClient text={t("hideWord")} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
