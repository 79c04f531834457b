/**
 * Settings' "Notifications": browser notifications for reminders while the app is open (on or
 * off in this browser), push notifications that reach a device with the app closed, and email
 * (reminders and a daily digest). When the browser can't show notifications, or blocks them,
 * it says so: reminders still show in the app.
 */
import { useId, useState } from "react";

import { EmailSettings } from "./EmailSettings";
import { PushSettings } from "./PushSettings";

import {
  setNotificationChoice,
  turnOnNotifications,
  useNotificationSettings,
  type NotificationAccess,
} from "./notifications";

const CANNOT: Partial<Record<NotificationAccess, string>> = {
  unsupported: "This browser can't show notifications. Reminders still appear here in the app.",
  denied:
    "Notifications are blocked for this site in your browser's settings. Reminders still appear here in the app.",
};

export function ReminderSettings() {
  const { access, enabled } = useNotificationSettings();
  const [said, setSaid] = useState("");
  const [busy, setBusy] = useState(false);
  const id = useId();
  const cannot = CANNOT[access];

  async function change(on: boolean) {
    if (!on) {
      setNotificationChoice("off");
      setSaid("Browser notifications off.");
      return;
    }
    setBusy(true);
    const now = await turnOnNotifications();
    setBusy(false);
    if (now === "granted") setSaid("Browser notifications on.");
    else if (now === "denied") setSaid(CANNOT.denied ?? "");
    else if (now === "default")
      setSaid("Notifications weren't allowed. Try again to see the browser's question.");
  }

  return (
    <>
      <p className="muted small">
        Reminders appear above the message box while the app is open. To get them when it's closed, turn on
        push for this device or email. Set a reminder in a task's details.
      </p>
      <h4 className="settings-subheading">While the app is open</h4>
      {cannot ? (
        <p className="small">{cannot}</p>
      ) : (
        <div className="settings-field">
          <label className="settings-toggle" htmlFor={`${id}-notify`}>
            <input
              id={`${id}-notify`}
              type="checkbox"
              checked={enabled}
              disabled={busy}
              aria-describedby={`${id}-notify-hint`}
              onChange={(event) => void change(event.target.checked)}
            />
            Browser notifications
          </label>
          <p id={`${id}-notify-hint`} className="muted small">
            Shown by your browser, even when this tab is in the background; set for this browser only.
            {access === "default" && " Your browser will ask you to allow them."}
          </p>
        </div>
      )}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
      <h4 className="settings-subheading">Push notifications</h4>
      <PushSettings />
      <h4 className="settings-subheading">Email</h4>
      <EmailSettings />
    </>
  );
}
