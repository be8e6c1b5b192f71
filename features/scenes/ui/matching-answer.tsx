"use client";
import { useTranslations } from "next-intl";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { SceneImage } from "./scene-image";
import type { RenderedScene, SceneAnswer } from "./types";

type Matching = Extract<RenderedScene, { type: "matching" }>;

/** The letter naming the right item at `i` (A, B, …; at most eight). */
export const letterOf = (i: number) => String.fromCharCode(65 + i);

/**
 * 線でつなぐ: the right items as a lettered list, and for each left item a select of them (touch and keyboard; no
 * lines to drag). The answer is saved once every left item has its match (scene-view.tsx `whenToSave`). With the
 * key (a staff preview, or feedback) each left item shows its right match.
 */
export function MatchingAnswer({
  scene,
  a,
  uid,
  readOnly,
  onAnswer,
}: {
  scene: Matching;
  a: Record<string, unknown>;
  uid: string;
  readOnly?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  const t = useTranslations("Scenes.matching");
  const tc = useTranslations("Scenes");
  const plain = usePlainText();
  const pairs = (a.pairs && typeof a.pairs === "object" ? a.pairs : {}) as Record<string, string>;
  const letter = (id: string | undefined) => {
    const i = scene.right.findIndex((r) => r.id === id);
    return i < 0 ? "" : letterOf(i);
  };
  const choose = (left: string, right: string) => {
    const next = { ...pairs };
    if (right) next[left] = right;
    else delete next[left];
    onAnswer({ pairs: next });
  };
  return (
    <div className="stack matching" data-testid="matching">
      <ol className="bare-list match-right" aria-label={plain(t("rightList"))}>
        {scene.right.map((r, i) => (
          <li key={r.id} className="match-right-item" data-item={r.id}>
            <span className="badge">{letterOf(i)}</span> {r.label}
            {r.image ? <SceneImage image={r.image} className="option-image" /> : null}
          </li>
        ))}
      </ol>
      <ul className="bare-list stack match-left" aria-labelledby={`${uid}-prompt`}>
        {scene.left.map((l, i) => (
          <li
            key={l.id}
            className="card match-row"
            data-item={l.id}
            data-correct={scene.key && scene.key[l.id] === pairs[l.id] ? "true" : undefined}
          >
            <label className="field">
              <span className="field-label">
                {l.label}
                {l.image ? <SceneImage image={l.image} className="option-image" /> : null}
              </span>
              <select
                value={pairs[l.id] ?? ""}
                disabled={readOnly}
                aria-label={l.name ? plain(t("pickFor", { item: l.name })) : undefined}
                data-testid={`match-${i + 1}`}
                onChange={(e) => choose(l.id, e.target.value)}
              >
                <option value="">{plain(t("choose"))}</option>
                {scene.right.map((r, j) => (
                  <option key={r.id} value={r.id}>
                    {letterOf(j)}　{r.text}
                  </option>
                ))}
              </select>
            </label>
            {scene.key?.[l.id] ? (
              <span className="badge badge-correct" data-testid="correct-mark">
                <RichTextClient text={`${tc("correctOption")} ${letter(scene.key[l.id])}`} />
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
