"use client";
import { useTranslations } from "next-intl";
import { balanceGroupsAction, setGroupAction } from "@/features/people/server/actions";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** One student's counterbalance group. */
export function GroupSelect({
  studentId,
  group,
  groups,
  name,
}: {
  studentId: string;
  group: string | null;
  groups: string[];
  name: string;
}) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const { pending, run } = useActionRunner();
  return (
    <select
      className="mode-select"
      value={group ?? ""}
      disabled={pending}
      aria-label={plain(t("groupLabel", { name }))}
      data-testid="group-select"
      onChange={(e) => {
        const next = e.target.value || null;
        run(() => setGroupAction({ studentIds: [studentId], group: next }), {
          success: t("groupDone"),
          failure: t("groupFailed"),
        });
      }}
    >
      <GroupOptions groups={groups} />
    </select>
  );
}

/** "none" and the school's groups, as the options of a group select. */
export function GroupOptions({ groups }: { groups: string[] }) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  return (
    <>
      <option value="">{plain(t("groupNone"))}</option>
      {groups.map((g) => (
        <option key={g} value={g}>
          {g}
        </option>
      ))}
    </>
  );
}

/** "Assign balanced" for the class shown (or every class). */
export function BalanceButton({ klass, groups }: { klass?: string; groups: string[] }) {
  const t = useTranslations("Students");
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={pending}
        aria-busy={pending}
        data-testid="balance-groups"
        onClick={async () => {
          if (
            !(await confirm({
              title: t("balance"),
              body: t("balanceConfirm", { groups: groups.join("・") }),
              confirm: t("balance"),
            }))
          )
            return;
          run(() => balanceGroupsAction({ groups, ...(klass ? { klass } : {}) }), {
            success: (data) => t("balanceDone", { count: data.count }),
            failure: t("groupFailed"),
          });
        }}
      >
        <RichTextClient text={t("balance")} />
      </button>
      {dialog}
    </>
  );
}
