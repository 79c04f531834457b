/**
 * Settings' push part: "Push on this device" (reminders reach this device with the app
 * closed) and the account's devices that get them, each of which can be turned off here.
 * Every state that stops push says why, and what to do about it.
 */
import { useId, useState } from "react";

import { ApiError, describeError } from "../api/errors";
import type { PushDevice } from "../api/pushApi";
import { pushSupport, type TurnOnResult } from "../pwa/push";
import { usePushDevices, useTurnOffPush, useTurnOnPush } from "../pwa/usePush";
import { notificationAccess, useNotificationSettings } from "./notifications";

export const PUSH_CANNOT = {
  unsupported:
    "This browser can't receive push notifications. Reminders still appear in the app and by email.",
  insecure: "Push notifications need a secure (https) address for this app.",
  "install-first":
    "On iPhone and iPad, push notifications need the app on your Home Screen: tap Share, then Add to Home Screen, and open it from there.",
  denied:
    "Notifications are blocked for this site. To allow them, open the site settings (the icon left of the address), set Notifications to Allow, then turn this on again.",
} as const;

function said(result: TurnOnResult): string {
  switch (result.outcome) {
    case "on":
      return "Push notifications on for this device.";
    case "dismissed":
      return "Notifications weren't allowed. Try again to see the browser's question.";
    default:
      return PUSH_CANNOT[result.outcome];
  }
}

function addedOn(device: PushDevice): string {
  const when = new Date(device.created_at);
  return Number.isNaN(when.getTime())
    ? ""
    : when.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

export function PushSettings() {
  const id = useId();
  const support = pushSupport();
  // Re-read when the permission changes in the browser's site settings.
  const { access } = useNotificationSettings();
  const { devices, thisDevice } = usePushDevices();
  const turnOn = useTurnOnPush();
  const turnOff = useTurnOffPush();
  const [message, setMessage] = useState("");
  const busy = turnOn.isPending || turnOff.isPending;
  const cannot =
    support !== "supported" ? PUSH_CANNOT[support] : access === "denied" ? PUSH_CANNOT.denied : null;

  async function change(on: boolean) {
    setMessage("");
    if (!on) {
      if (thisDevice) await turnOff.mutateAsync(thisDevice).catch(() => undefined);
      setMessage("Push notifications off for this device.");
      return;
    }
    try {
      setMessage(said(await turnOn.mutateAsync()));
    } catch (error) {
      setMessage(
        error instanceof ApiError ? `Couldn't turn push on. ${describeError(error)}` : describeError(error),
      );
    }
  }

  const list = devices.data ?? [];
  return (
    <>
      {cannot ? (
        <p className="small">{cannot}</p>
      ) : (
        <div className="settings-field">
          <label className="settings-toggle" htmlFor={`${id}-push`}>
            <input
              id={`${id}-push`}
              type="checkbox"
              checked={thisDevice !== undefined}
              disabled={busy || devices.isPending}
              aria-describedby={`${id}-push-hint`}
              onChange={(event) => void change(event.target.checked)}
            />
            Push on this device
          </label>
          <p id={`${id}-push-hint`} className="muted small">
            Reminders reach this device even when the app is closed, with Done and Snooze buttons.
            {notificationAccess() === "default" && " Your browser will ask you to allow notifications."}
          </p>
        </div>
      )}
      {message && (
        <p className="small" role="status">
          {message}
        </p>
      )}
      {devices.isError ? (
        <p className="small">
          Couldn't load the devices that get push notifications. {describeError(devices.error)}
        </p>
      ) : (
        list.length > 0 && (
          <ul className="push-devices" aria-label="Devices that get push notifications">
            {list.map((device) => {
              const name = device.device || "Unknown browser";
              const here = device.id === thisDevice?.id;
              return (
                <li key={device.id} className="push-device">
                  <span className="push-device-name">
                    <span>
                      {name}
                      {here && <span className="push-device-here"> · This device</span>}
                    </span>
                    <span className="muted small">Added {addedOn(device)}</span>
                  </span>
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy}
                    aria-label={`Turn off push on ${here ? "this device" : name}`}
                    onClick={() => void turnOff.mutateAsync(device).catch(() => undefined)}
                  >
                    Turn off
                  </button>
                </li>
              );
            })}
          </ul>
        )
      )}
    </>
  );
}
