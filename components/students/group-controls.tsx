"use client";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import type { ActionResult } from "@/lib/errors";
import { balanceGroupsAction, setGroupAction } from "@/lib/students/actions";
import { useNotify } from "@/components/ui/notifications";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { usePlainText } from "@/components/ui/use-plain-text";

const failed = (): ActionResult<never> => ({ ok: false, code: "INTERNAL" });

/** One student's counterbalance group. */
export function GroupSelect({ studentId, group, groups, name }: { studentId: string; group: string | null; groups: string[]; name: string }) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const notify = useNotify();
  const [pending, startTransition] = useTransition();
  return (
    <select
      className="mode-select"
      value={group ?? ""}
      disabled={pending}
      aria-label={plain(t("groupLabel", { name }))}
      data-testid="group-select"
      onChange={(e) => {
        const next = e.target.value || null;
        startTransition(async () => {
          const result = await setGroupAction({ studentIds: [studentId], group: next }).catch(failed);
          notify(result.ok ? { message: t("groupDone"), kind: "success" } : { message: t("groupFailed"), kind: "error" });
        });
      }}
    >
      <option value="">{plain(t("groupNone"))}</option>
      {groups.map((g) => (
        <option key={g} value={g}>
          {g}
        </option>
      ))}
    </select>
  );
}

/** "Assign balanced" for the class shown (or every class). */
export function BalanceButton({ className, groups }: { className?: string; groups: string[] }) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const notify = useNotify();
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      className="button"
      disabled={pending}
      aria-busy={pending}
      data-testid="balance-groups"
      onClick={() => {
        if (!window.confirm(plain(t("balanceConfirm", { groups: groups.join("・") })))) return;
        startTransition(async () => {
          const result = await balanceGroupsAction({ groups, ...(className ? { className } : {}) }).catch(failed);
          notify(result.ok ? { message: t("balanceDone", { count: result.data.count }), kind: "success" } : { message: t("groupFailed"), kind: "error" });
        });
      }}
    >
      <RichTextClient text={t("balance")} />
    </button>
  );
}
