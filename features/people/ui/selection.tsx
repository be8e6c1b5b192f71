"use client";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { usePlainText } from "@/platform/ui/use-plain-text";

interface Selection {
  pageIds: string[];
  selected: ReadonlySet<string>;
  toggle: (id: string, on: boolean) => void;
  setAll: (on: boolean) => void;
  clear: () => void;
}

const SelectionContext = createContext<Selection | null>(null);

export function useSelection(): Selection {
  const value = useContext(SelectionContext);
  if (!value) throw new Error("useSelection outside SelectionProvider");
  return value;
}

/** The rows selected on the current page of the students table (the bulk actions act on them). */
export function SelectionProvider({ pageIds, children }: { pageIds: string[]; children: ReactNode }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // a new page (paging, filter, a deleted row) keeps only rows still shown
  const key = pageIds.join(",");
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setSelected((s) => new Set([...s].filter((id) => pageIds.includes(id))));
  }
  const toggle = useCallback((id: string, on: boolean) => {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const setAll = useCallback((on: boolean) => setSelected(on ? new Set(pageIds) : new Set()), [pageIds]);
  const clear = useCallback(() => setSelected(new Set()), []);
  const value = useMemo(
    () => ({ pageIds, selected, toggle, setAll, clear }),
    [pageIds, selected, toggle, setAll, clear],
  );
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function RowCheckbox({ id, label }: { id: string; label: string }) {
  const { selected, toggle } = useSelection();
  return (
    <input
      type="checkbox"
      className="row-check"
      checked={selected.has(id)}
      onChange={(e) => toggle(id, e.target.checked)}
      aria-label={label}
      data-testid="row-select"
    />
  );
}

export function SelectAllCheckbox({ label }: { label: string }) {
  const plain = usePlainText();
  const { pageIds, selected, setAll } = useSelection();
  const all = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const some = !all && selected.size > 0;
  return (
    <input
      type="checkbox"
      className="row-check"
      checked={all}
      ref={(el) => {
        if (el) el.indeterminate = some;
      }}
      onChange={(e) => setAll(e.target.checked)}
      aria-label={plain(label)}
      data-testid="select-all"
    />
  );
}
