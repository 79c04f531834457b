/**
 * The signed-in app's reminders: followed live, shown as cards, and as browser notifications.
 * The same stream says when someone else changed tasks, lists or invitations: those refresh.
 * Mounted in the chat column between the conversation and the composer, where the cards take
 * room of their own rather than covering anything (reminders.css).
 */
import { useAccountZone } from "../auth/useAuth";
import { usePushSync } from "../pwa/usePush";
import { useLiveChanges } from "../sharing/liveChanges";
import { notifyReminder } from "./notifications";
import { ReminderStack } from "./ReminderStack";
import { reminderDetail } from "./reminderText";
import { useReminders } from "./useReminders";

export function Reminders() {
  const zone = useAccountZone();
  usePushSync();
  const onChanged = useLiveChanges();
  const { reminders, dismiss, dismissAll, snooze, done } = useReminders({
    onArrived: (reminder, skewMs) => {
      const now = Date.now();
      // Judged on the server's clock: a missed one replayed on connect stays in-app only.
      notifyReminder(reminder, reminderDetail(reminder, zone, now), now + skewMs);
    },
    // Another member's change (or another device's) shows without a reload.
    onChanged,
  });
  return (
    <ReminderStack
      reminders={reminders}
      onDismiss={dismiss}
      onDismissAll={dismissAll}
      onSnooze={snooze}
      onDone={done}
    />
  );
}
