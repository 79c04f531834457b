/** The signed-in app's reminders: followed live, shown as cards, and as browser notifications. */
import { useAccountZone } from "../auth/useAuth";
import { notifyReminder } from "./notifications";
import { ReminderStack } from "./ReminderStack";
import { reminderDetail } from "./reminderText";
import { useReminders } from "./useReminders";

export function Reminders() {
  const zone = useAccountZone();
  const { reminders, dismiss, dismissAll } = useReminders({
    onArrived: (reminder, skewMs) => {
      const now = Date.now();
      // Judged on the server's clock: a missed one replayed on connect stays in-app only.
      notifyReminder(reminder, reminderDetail(reminder, zone, now), now + skewMs);
    },
  });
  return <ReminderStack reminders={reminders} onDismiss={dismiss} onDismissAll={dismissAll} />;
}
