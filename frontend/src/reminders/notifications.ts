/**
 * Browser notifications for reminders: whether this browser may show them (its permission)
 * and whether the person wants them here (a choice kept in localStorage, per browser).
 * Permission is only ever asked for from a click (turnOnNotifications), never on load.
 */
import { useSyncExternalStore } from "react";

import type { Reminder } from "../api/types";

/** The browser's permission, or "unsupported" when it has no Notification API. */
export type NotificationAccess = NotificationPermission | "unsupported";
/** null: never chosen in this browser (the first reminder offers to turn them on). */
export type NotificationChoice = "on" | "off" | null;

export const CHOICE_KEY = "todo-chatbot.reminder-notifications";
/** A reminder older than this when it reaches the page (a missed one, replayed) shows in-app only. */
export const FRESH_MS = 5 * 60_000;

const listeners = new Set<() => void>();

function publish(): void {
  for (const listener of listeners) listener();
}

function supported(): boolean {
  return typeof window !== "undefined" && typeof window.Notification === "function";
}

export function notificationAccess(): NotificationAccess {
  return supported() ? Notification.permission : "unsupported";
}

export function notificationChoice(): NotificationChoice {
  const stored = localStorage.getItem(CHOICE_KEY);
  return stored === "on" || stored === "off" ? stored : null;
}

export function setNotificationChoice(choice: "on" | "off"): void {
  localStorage.setItem(CHOICE_KEY, choice);
  publish();
}

/** From a click: ask for permission if it was never given or refused, and keep the choice. */
export async function turnOnNotifications(): Promise<NotificationAccess> {
  if (!supported()) return "unsupported";
  let access = Notification.permission;
  if (access === "default") access = await Notification.requestPermission();
  if (access === "granted") setNotificationChoice("on");
  else publish(); // refused: the settings now say so
  return access;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice, and a permission changed in the browser's site settings.
  const onStorage = (event: StorageEvent) => {
    if (event.key === CHOICE_KEY || event.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  let status: PermissionStatus | null = null;
  let stopped = false;
  navigator.permissions
    ?.query({ name: "notifications" })
    .then((found) => {
      if (stopped) return;
      status = found;
      status.addEventListener("change", listener);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
    status?.removeEventListener("change", listener);
  };
}

export interface NotificationSettings {
  access: NotificationAccess;
  choice: NotificationChoice;
  /** Both: the person turned them on here, and the browser allows them. */
  enabled: boolean;
}

export function useNotificationSettings(): NotificationSettings {
  const access = useSyncExternalStore(subscribe, notificationAccess);
  const choice = useSyncExternalStore(subscribe, notificationChoice);
  return { access, choice, enabled: access === "granted" && choice === "on" };
}

/**
 * Show a reminder as a browser notification, if they are on and it has just fired
 * (`now` on the server's clock). One tag per reminder: several open tabs show it once.
 * Returns whether one was shown.
 */
export function notifyReminder(reminder: Reminder, body: string, now: number): boolean {
  if (notificationAccess() !== "granted" || notificationChoice() !== "on") return false;
  if (now - Date.parse(reminder.fired_at) > FRESH_MS) return false;
  try {
    const notification = new Notification(reminder.title, { body, tag: `reminder-${reminder.id}` });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
    return true;
  } catch {
    // Chrome on Android has no page notifications (only a service worker's): in-app only.
    return false;
  }
}
