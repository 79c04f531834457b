/**
 * Settings' "Notifications": browser notifications for reminders, on or off in this browser.
 * When the browser can't show them, or blocks them, it says so: reminders still show in the app.
 */
import { useId, useState } from "react";

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
        Reminders appear above the message box while this page is open; ones that fire while it's closed wait
        for your next visit. Set one in a task's details.
      </p>
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
    </>
  );
}
