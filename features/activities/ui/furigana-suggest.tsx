"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useId, useState } from "react";
import { applyFurigana, cleanReading, type Proposal } from "@/features/activities/shared/furigana-propose";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { Spinner } from "@/platform/ui/spinner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { fetchProposals } from "./furigana-fetch";

interface Row extends Proposal {
  use: boolean;
  edited: string;
}

type State =
  | { kind: "closed" }
  | { kind: "loading" }
  | { kind: "failed"; why: "tooLong" | "busy" | "failed" }
  | { kind: "ready"; rows: Row[] };

/**
 * 「ふりがなを提案」: asks for the readings of every kanji word of `text`
 * (stored markup) and lists them, each with its reading in an input and a
 * checkbox (all on); 「選んだふりがなをつける」 writes the chosen ones into the
 * text as ruby (features/activities/shared/furigana-propose.ts applyFurigana) through `onApply`. Beside the button, the
 * school's readings page (「学校の読みを見る」, in a new tab so the text being edited stays).
 */
export function FuriganaSuggest({
  text,
  onApply,
  schoolId,
}: {
  text: string;
  onApply: (next: string) => void;
  schoolId?: string;
}) {
  const t = useTranslations("Furigana");
  const plain = usePlainText();
  const notify = useNotify();
  const headingId = useId();
  const [state, setState] = useState<State>({ kind: "closed" });

  const suggest = async () => {
    setState({ kind: "loading" });
    const proposals = await fetchProposals(text, schoolId);
    if (!Array.isArray(proposals)) setState({ kind: "failed", why: proposals ?? "failed" });
    else setState({ kind: "ready", rows: proposals.map((p) => ({ ...p, use: true, edited: p.reading })) });
  };
  const update = (index: number, change: Partial<Row>) =>
    setState((s) =>
      s.kind === "ready" ? { ...s, rows: s.rows.map((r, i) => (i === index ? { ...r, ...change } : r)) } : s,
    );
  const apply = () => {
    if (state.kind !== "ready") return;
    const accepted = state.rows
      .filter((r) => r.use && cleanReading(r.edited) !== "")
      .map((r) => ({ ...r, reading: r.edited }));
    // a word the teacher changed since the proposals came is left alone (applyFurigana checks each place)
    onApply(applyFurigana(text, accepted));
    setState({ kind: "closed" });
    notify({ message: t("applied"), kind: "success" });
  };

  return (
    <div className="stack furigana-suggest" data-testid="furigana-suggest">
      <div className="row">
        <button
          type="button"
          className="button button-small"
          onClick={() => void suggest()}
          disabled={state.kind === "loading" || text.trim() === ""}
          data-testid="furigana-suggest-button"
        >
          <RichTextClient text={t("suggest")} />
        </button>
        <Link
          href={schoolId ? `/dashboard/manager/schools/${schoolId}/readings` : "/dashboard/teacher/readings"}
          className="small"
          target="_blank"
          data-testid="open-readings"
        >
          <RichTextClient text={t("openReadings")} />
        </Link>
      </div>
      {state.kind === "loading" ? <Spinner size="small" label={plain(t("loading"))} /> : null}
      {state.kind === "failed" ? (
        <p role="alert" className="alert alert-error">
          <RichTextClient text={t(state.why)} />
        </p>
      ) : null}
      {state.kind === "ready" && state.rows.length === 0 ? (
        <p role="status" className="muted" data-testid="furigana-empty">
          <RichTextClient text={t("empty")} />
        </p>
      ) : null}
      {state.kind === "ready" && state.rows.length > 0 ? (
        <ProposalList
          headingId={headingId}
          rows={state.rows}
          update={update}
          apply={apply}
          onCancel={() => setState({ kind: "closed" })}
        />
      ) : null}
    </div>
  );
}

/** The proposed readings, each in its row, with 「選んだふりがなをつける」 and cancel. */
function ProposalList({
  headingId,
  rows,
  update,
  apply,
  onCancel,
}: {
  headingId: string;
  rows: Row[];
  update: (index: number, change: Partial<Row>) => void;
  apply: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations("Furigana");
  return (
    <fieldset className="stack" aria-labelledby={headingId} data-testid="furigana-proposals">
      <legend id={headingId}>
        <RichTextClient text={t("heading")} />
      </legend>
      <ul className="stack furigana-list">
        {rows.map((row, index) => (
          <ProposalRow
            key={`${row.start}-${row.base}`}
            row={row}
            onChange={(change) => update(index, change)}
            apply={apply}
          />
        ))}
      </ul>
      <div className="row">
        <button
          type="button"
          className="button button-small button-primary"
          onClick={apply}
          data-testid="furigana-apply"
        >
          <RichTextClient text={t("apply")} />
        </button>
        <button type="button" className="button button-small" onClick={onCancel}>
          <RichTextClient text={t("cancel")} />
        </button>
      </div>
      {/* EDRDG's licence asks for this acknowledgement on every screen that shows words from its files */}
      <p className="muted small" data-testid="furigana-credit">
        <RichTextClient text={t("credit")} />{" "}
        <a href="https://www.edrdg.org/edrdg/licence.html" target="_blank" rel="noopener">
          EDICT, KANJIDIC (EDRDG, CC BY-SA)
        </a>
      </p>
    </fieldset>
  );
}

/**
 * One word: its checkbox, the word, its reading (Enter applies), 「要確認」 when the analyser guessed it
 * (unknown word, proper noun, prefix or suffix: only here, the stored text gets the ruby alone) and where
 * the reading came from.
 */
function ProposalRow({
  row,
  onChange,
  apply,
}: {
  row: Row;
  onChange: (change: Partial<Row>) => void;
  apply: () => void;
}) {
  const t = useTranslations("Furigana");
  const plain = usePlainText();
  return (
    <li className={row.check ? "row furigana-row-check" : "row"} data-testid="furigana-row" data-base={row.base}>
      <input
        type="checkbox"
        checked={row.use}
        onChange={(e) => onChange({ use: e.target.checked })}
        aria-label={plain(t("use", { word: row.word }))}
      />
      <span lang="ja" className="furigana-word">
        {row.word}
      </span>
      <input
        className="furigana-reading"
        value={row.edited}
        maxLength={60}
        disabled={!row.use}
        onChange={(e) => onChange({ edited: e.target.value })}
        // Enter applies (inside the editor's form it would otherwise save without the readings)
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            apply();
          }
        }}
        aria-label={plain(t("reading", { word: row.word, base: row.base }))}
      />
      {row.check ? (
        <span className="badge furigana-check" data-testid="furigana-check" title={plain(t("checkHint"))}>
          <RichTextClient text={t("check")} />
        </span>
      ) : null}
      {row.source !== "dictionary" ? (
        <span className="muted small">
          <RichTextClient text={t(row.source === "roster" ? "fromRoster" : "fromSchool")} />
        </span>
      ) : null}
    </li>
  );
}
