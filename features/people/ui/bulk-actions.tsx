"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { ActionResult } from "@/platform/errors";
import {
  balanceGroupsAction,
  deleteStudentsAction,
  issueCodesAction,
  revokeCodesAction,
  setCodeExpiryAction,
  setDisabledAction,
  setGroupAction,
} from "@/features/people/server/actions";
import { ActionButton } from "@/platform/ui/action-button";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { GroupOptions } from "./group-controls";
import { PrintSheets } from "./print-sheets";
import { useSelection } from "./selection";

/** What the bulk actions need, said in the toolbar while no row is selected. */
export function BulkHint() {
  const t = useTranslations("Students");
  const { selected } = useSelection();
  if (selected.size > 0) return null;
  return (
    <p className="muted bulk-hint" data-testid="bulk-hint">
      <RichTextClient text={t("selectHint")} />
    </p>
  );
}

/**
 * The actions on the selected rows: group, balance, sheets, codes (new, revoke, expiry), stop/resume, delete.
 * Shown once a row is selected, below the table and kept on screen (sticky at the bottom) while the table scrolls.
 */
export function BulkActions({ groups }: { groups: string[] }) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const { selected, clear } = useSelection();
  const bulk = useBulkRunner();
  const [group, setGroup] = useState("");
  const [expiry, setExpiry] = useState("");
  const studentIds = [...selected];
  const count = studentIds.length;
  if (count === 0) return null;
  const on = { bulk, studentIds, count };
  return (
    <section className="bulk-bar" aria-label={plain(t("bulkLabel"))} data-testid="bulk-bar">
      <strong data-testid="selected-count">
        <RichTextClient text={t("selected", { count })} />
      </strong>
      <GroupRow {...on} groups={groups} group={group} setGroup={setGroup} />
      <CodeRow {...on} expiry={expiry} setExpiry={setExpiry} />
      <AccountRow {...on} clear={clear} />
      {bulk.dialog}
    </section>
  );
}

/** The bulk runner: each action after an optional confirmation, with its messages; its buttons wait for it. */
function useBulkRunner() {
  const t = useTranslations("Students");
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  /** One bulk action: an optional confirmation, then the action with its messages. */
  const act =
    <T,>(
      action: () => Promise<ActionResult<T>>,
      success: string | ((d: T) => string),
      ask?: { title: string; body: string; confirm?: string; danger?: boolean },
      onOk?: () => void,
    ) =>
    async () => {
      if (ask && !(await confirm({ ...ask, confirm: ask.confirm ?? ask.title }))) return;
      run(action, { success, failure: t("failed"), onOk });
    };
  const button = (
    label: string,
    testId: string,
    onClick: () => unknown,
    extra?: { danger?: boolean; disabled?: boolean },
  ) => (
    <ActionButton
      label={label}
      testId={testId}
      onClick={onClick}
      disabled={pending || extra?.disabled}
      danger={extra?.danger}
    />
  );
  return { act, button, dialog };
}

/** What every row of bulk actions acts with: the runner and the selected students. */
interface RowProps {
  bulk: ReturnType<typeof useBulkRunner>;
  studentIds: string[];
  count: number;
}

/** Group: set one, or balance the selected over the groups; print their sheets. */
function GroupRow({
  bulk: { act, button },
  studentIds,
  count,
  groups,
  group,
  setGroup,
}: RowProps & { groups: string[]; group: string; setGroup: (group: string) => void }) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  return (
    <div className="row wrap">
      <label className="field field-inline">
        <span className="visually-hidden">{plain(t("group"))}</span>
        <select value={group} onChange={(e) => setGroup(e.target.value)} data-testid="bulk-group">
          <GroupOptions groups={groups} />
        </select>
      </label>
      {button(
        t("setGroup"),
        "bulk-set-group",
        act(() => setGroupAction({ studentIds, group: group || null }), t("groupDone")),
      )}
      {button(
        t("balance"),
        "bulk-balance",
        act(
          () => balanceGroupsAction({ studentIds, groups }),
          (d) => t("balanceDone", { count: d.count }),
          { title: t("balance"), body: t("balanceSelectedConfirm", { count, groups: groups.join("・") }) },
        ),
        { disabled: count < 2 },
      )}
      <PrintSheets ids={studentIds} testId="bulk-print" />
    </div>
  );
}

/** Sign-in codes: new ones, revoke, and their last day. */
function CodeRow({
  bulk: { act, button },
  studentIds,
  count,
  expiry,
  setExpiry,
}: RowProps & { expiry: string; setExpiry: (expiry: string) => void }) {
  const t = useTranslations("Students");
  return (
    <div className="row wrap">
      {button(
        t("newCode"),
        "bulk-new-codes",
        act(() => issueCodesAction({ studentIds }), t("newCodeDone"), {
          title: t("newCode"),
          body: t("newCodesConfirm", { count }),
          danger: true,
        }),
      )}
      {button(
        t("revoke"),
        "bulk-revoke",
        act(() => revokeCodesAction({ studentIds }), t("revokedDone"), {
          title: t("revoke"),
          body: t("revokeManyConfirm", { count }),
          danger: true,
        }),
      )}
      <label className="field field-inline">
        <span className="field-label">
          <RichTextClient text={t("expiry")} />
        </span>
        <input type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} data-testid="bulk-expiry" />
      </label>
      {button(
        expiry ? t("setExpiry") : t("clearExpiry"),
        "bulk-set-expiry",
        act(() => setCodeExpiryAction({ studentIds, expiresOn: expiry || null }), t("expiryDone")),
      )}
    </div>
  );
}

/** Accounts: stop, resume, delete; and clear the selection. */
function AccountRow({ bulk: { act, button }, studentIds, count, clear }: RowProps & { clear: () => void }) {
  const t = useTranslations("Students");
  return (
    <div className="row wrap">
      {button(
        t("disable"),
        "bulk-disable",
        act(() => setDisabledAction({ studentIds, disabled: true }), t("disabledDone")),
      )}
      {button(
        t("enable"),
        "bulk-enable",
        act(() => setDisabledAction({ studentIds, disabled: false }), t("enabledDone")),
      )}
      {button(
        t("delete"),
        "bulk-delete",
        act(
          () => deleteStudentsAction({ studentIds }),
          (d) => t("deletedDone", { count: d.count }),
          { title: t("deleteTitle"), body: t("deleteManyBody", { count }), confirm: t("delete"), danger: true },
          clear,
        ),
        { danger: true },
      )}
      {button(t("clearSelection"), "bulk-clear", clear)}
    </div>
  );
}
