/**
 * Under the first reminders in a browser that was never asked: an offer to get them as
 * notifications too: while the app is open, and (where the browser has push) on this device
 * when it is closed. The permission prompt comes only from its button (a click).
 */
import { useQueryClient } from "@tanstack/react-query";

import { pushSupport, turnOnPush } from "../pwa/push";
import { setNotificationChoice, turnOnNotifications, useNotificationSettings } from "./notifications";

/** `onAnswered`: the offer is gone (with the button that had focus). */
export function NotificationOffer({ onAnswered }: { onAnswered: () => void }) {
  const { access, choice } = useNotificationSettings();
  const queryClient = useQueryClient();
  if (access !== "default" || choice !== null) return null;
  const push = pushSupport() === "supported";

  async function turnOn() {
    const now = await turnOnNotifications();
    if (now === "granted" && push) {
      // Allowed already (just now): no second question. Settings say why, should it fail.
      await turnOnPush().catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: ["push"] });
    }
  }

  return (
    <div className="reminder-offer small">
      <p>
        {push
          ? "Get reminders as notifications on this device too, even when the app is closed?"
          : "Get reminders as browser notifications too, even when this tab is in the background?"}
      </p>
      <div className="reminder-offer-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => void turnOn().finally(onAnswered)}
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
