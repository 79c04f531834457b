/** When a task is due, relative to the account's today: red when overdue, highlighted today. */
import type { Task } from "../api/types";
import { useAccountZone } from "../auth/useAuth";
import { CalendarIcon, WarningIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";
import { useCurrentMinute } from "./clock";
import { dueLabel } from "./dueLabel";

export function DueChip({ task, id }: { task: Task; id: string }) {
  const zone = useAccountZone();
  const now = useCurrentMinute();
  const label = dueLabel(task, zone, now);
  if (!label) return null;
  const Icon = label.tone === "overdue" ? WarningIcon : CalendarIcon;
  return (
    <span id={id} className={`chip due-chip is-${label.tone}`} title={label.full} data-due-tone={label.tone}>
      <Icon width={13} height={13} />
      <SpokenAs spoken={label.spoken}>{label.text}</SpokenAs>
    </span>
  );
}
