import { getTranslations } from "next-intl/server";
import { pairsRight } from "@/features/scenes/shared/matching";
import { positionsRight } from "@/features/scenes/shared/ordering";
import { RichText } from "@/platform/ui/rich-text";
import type { SceneStats } from "@/features/results/server/stats";
import { BarChart } from "./bar-chart";

/**
 * An ordering's or matching's numbers past its correct rate (the share fully right): per position, how many put
 * the right item there; per left item, how many matched it with its right item (`SceneStats.cross`).
 */
export async function KeyedStats({ s }: { s: SceneStats }) {
  const t = await getTranslations("Results");
  if (s.scene.type === "ordering") {
    const rows = positionsRight(s.scene.content, s.cross);
    return (
      <section className="stack" data-testid="order-positions">
        <h4>
          <RichText text={t("orderPositions")} />
        </h4>
        <BarChart
          total={s.answered}
          bars={rows.map(({ item }, i) => ({
            id: String(i),
            label: t("orderPosition", { n: i + 1, item: item.label }),
          }))}
          counts={Object.fromEntries(rows.map(({ right }, i) => [String(i), right]))}
        />
      </section>
    );
  }
  if (s.scene.type !== "matching") return null;
  const { right } = s.scene.content;
  const rows = pairsRight(s.scene.content, s.cross);
  const labelOf = (id: string | undefined) => right.find((r) => r.id === id)?.label ?? "—";
  return (
    <section className="stack" data-testid="match-pairs">
      <h4>
        <RichText text={t("matchPairs")} />
      </h4>
      <BarChart
        total={s.answered}
        bars={rows.map(({ left }) => ({
          id: left.id,
          label: t("matchPair", { left: left.label, right: labelOf(left.correct) }),
        }))}
        counts={Object.fromEntries(rows.map(({ left, right: n }) => [left.id, n]))}
      />
    </section>
  );
}
