/**
 * A bell on a task with a reminder still to come. At its time it is the bell alone (the due
 * chip says when); otherwise it says when, in the account's zone. Said as "Reminder today 08:30".
 */
import type { Task } from "../api/types";
import { useAccountZone } from "../auth/useAuth";
import { describeBefore } from "../reminders/reminderText";
import { BellIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";
import { useCurrentMinute } from "./clock";
import { inSentence, instantInFull, instantLabel } from "./dueLabel";

export function ReminderChip({ task, id }: { task: Task; id: string }) {
  const zone = useAccountZone();
  const now = useCurrentMinute();
  if (!task.remind_at || task.completed) return null;
  const when = instantLabel(task.remind_at, zone, now);
  const before = task.remind_before;
  const full = instantInFull(task.remind_at, zone);
  const title = before != null ? `Reminder ${describeBefore(before)}: ${full}` : `Reminder: ${full}`;
  return (
    <span id={id} className="chip reminder-chip" title={title}>
      <BellIcon width={13} height={13} />
      <SpokenAs spoken={`Reminder ${inSentence(when)}`}>{before === 0 ? null : when}</SpokenAs>
    </span>
  );
}
