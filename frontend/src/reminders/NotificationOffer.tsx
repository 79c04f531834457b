/**
 * Under the first reminders in a browser that was never asked: an offer to get them as
 * browser notifications too. The permission prompt comes only from its button (a click).
 */
import { setNotificationChoice, turnOnNotifications, useNotificationSettings } from "./notifications";

/** `onAnswered`: the offer is gone (with the button that had focus). */
export function NotificationOffer({ onAnswered }: { onAnswered: () => void }) {
  const { access, choice } = useNotificationSettings();
  if (access !== "default" || choice !== null) return null;
  return (
    <div className="reminder-offer small">
      <p>Get reminders as browser notifications too, even when this tab is in the background?</p>
      <div className="reminder-offer-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => void turnOnNotifications().then(onAnswered)}
        >
          Turn on notifications
        </button>
        <button
          type="button"
          className="button button-small button-ghost"
          onClick={() => {
            setNotificationChoice("off");
            onAnswered();
          }}
        >
          Not now
        </button>
      </div>
    </div>
  );
}
