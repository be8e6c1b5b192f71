"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useState } from "react";
import { cellReasonsAction } from "@/features/results/server/actions";
import type { StatsFilter } from "@/features/results/shared/schema";
import type { Person } from "@/features/results/server/stats";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { StudentLabel } from "./student-label";

interface Option {
  id: string;
  label: ReactNode;
}

interface OpenCell {
  first: string;
  second: string;
  reasons: { reason: string; who: Person }[];
}

/**
 * The two-step first × second cross-table with counts; a cell's button lists
 * the reasons behind it (with the students' names, hidden with NamesToggle).
 */
export function CrossTable({
  activityId,
  schoolId,
  sceneId,
  firsts,
  seconds,
  cross,
  filter,
}: {
  activityId: string;
  schoolId?: string;
  sceneId: string;
  firsts: Option[];
  seconds: Option[];
  cross: Record<string, Record<string, number>>;
  filter: StatsFilter;
}) {
  const t = useTranslations("Results");
  const { pending, run } = useActionRunner();
  const [open, setOpen] = useState<OpenCell | null>(null);
  const show = (first: string, second: string) =>
    run(() => cellReasonsAction({ activityId, sceneId, first, second, filter, ...(schoolId ? { schoolId } : {}) }), {
      failure: t("loadFailed"),
      onOk: (reasons) => setOpen({ first, second, reasons }),
    });
  return (
    <div className="stack">
      <div className="table-wrap">
        <table className="table cross-table" data-testid="cross-table">
          <CrossHead seconds={seconds} />
          <tbody>
            {firsts.map((f) => (
              <tr key={f.id} data-first={f.id}>
                <th scope="row">{f.label}</th>
                {seconds.map((s) => {
                  const n = cross[f.id]?.[s.id] ?? 0;
                  return (
                    <td key={s.id} className="num" data-cell={`${f.id}:${s.id}`} data-count={n}>
                      {n > 0 ? (
                        <button
                          type="button"
                          className="cell-button"
                          disabled={pending}
                          onClick={() => show(f.id, s.id)}
                          aria-expanded={open?.first === f.id && open.second === s.id}
                        >
                          {n}
                        </button>
                      ) : (
                        n
                      )}
                    </td>
                  );
                })}
                <td className="num" data-total-first={f.id}>
                  {Object.values(cross[f.id] ?? {}).reduce((a, b) => a + b, 0)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open ? <CellReasons open={open} firsts={firsts} seconds={seconds} /> : null}
    </div>
  );
}

/** The header row: the second steps, then the total. */
function CrossHead({ seconds }: { seconds: Option[] }) {
  const t = useTranslations("Results");
  return (
    <thead>
      <tr>
        <th scope="col">
          <RichTextClient text={t("firstBySecond")} />
        </th>
        {seconds.map((s) => (
          <th key={s.id} scope="col" data-second={s.id}>
            {s.label}
          </th>
        ))}
        <th scope="col">
          <RichTextClient text={t("total")} />
        </th>
      </tr>
    </thead>
  );
}

/** The reasons behind the cell opened, with who gave each. */
function CellReasons({ open, firsts, seconds }: { open: OpenCell; firsts: Option[]; seconds: Option[] }) {
  const label = (list: Option[], id: string) => list.find((o) => o.id === id)?.label ?? id;
  return (
    <section
      className="card stack"
      aria-live="polite"
      data-testid="cell-reasons"
      data-cell={`${open.first}:${open.second}`}
    >
      <h4>
        {label(firsts, open.first)} × {label(seconds, open.second)}
      </h4>
      <ul className="stack bare-list">
        {open.reasons.map((r, i) => (
          <li key={i} className="reason">
            <span>{r.reason}</span>{" "}
            <span className="who muted">
              — <StudentLabel who={r.who} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
