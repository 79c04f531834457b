/** The signed-in app's reminders: followed live and shown as cards. */
import { ReminderStack } from "./ReminderStack";
import { useReminders } from "./useReminders";

export function Reminders() {
  const { reminders, dismiss, dismissAll } = useReminders();
  return <ReminderStack reminders={reminders} onDismiss={dismiss} onDismissAll={dismissAll} />;
}
