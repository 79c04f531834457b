/**
 * The page's side of the service worker (src/sw/sw.ts, served at /sw.js): registering it, and
 * hearing what it says (a notification's action changed a reminder; the push subscription
 * was replaced; open the app at a task).
 */
import { SW_MESSAGE } from "../sw/pushPayload";

export const SW_URL = "/sw.js";

function available(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && window.isSecureContext;
}

let registering: Promise<ServiceWorkerRegistration> | null = null;

/** The app's service worker registration, registering it if needed (once per page). */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration> {
  if (!available()) return Promise.reject(new Error("This browser has no service workers."));
  registering ??= navigator.serviceWorker.register(SW_URL, { scope: "/" }).catch((error: unknown) => {
    registering = null;
    throw error;
  });
  return registering;
}

/** The active registration: push subscriptions need a worker that is active. */
export async function readyServiceWorker(): Promise<ServiceWorkerRegistration> {
  await registerServiceWorker();
  return navigator.serviceWorker.ready;
}

/** A message from the worker, when it is one of ours: its type and the rest. */
export function workerMessage(
  event: MessageEvent<unknown>,
): (Record<string, unknown> & { type: string }) | null {
  const message = event.data;
  if (typeof message !== "object" || message === null) return null;
  const { type } = message as Record<string, unknown>;
  return typeof type === "string" && type.startsWith("todo-chatbot:")
    ? (message as Record<string, unknown> & { type: string })
    : null;
}

/**
 * At start-up, in the built app: register the worker (so the app shell is cached for offline
 * use from the first visit on) and listen to it. `onRemindersChanged`: a notification's Done
 * or Snooze went through. Returns a function that stops listening.
 */
export function startServiceWorker(onRemindersChanged: () => void): () => void {
  if (!available() || !import.meta.env.PROD) return () => undefined;
  const onLoad = () => void registerServiceWorker().catch(() => undefined);
  if (document.readyState === "complete") onLoad();
  else window.addEventListener("load", onLoad, { once: true });
  const onMessage = (event: MessageEvent<unknown>) => {
    const message = workerMessage(event);
    if (message?.type === SW_MESSAGE.remindersChanged) onRemindersChanged();
    else if (message?.type === SW_MESSAGE.open && typeof message["url"] === "string") {
      const target = new URL(message["url"], location.origin);
      if (target.origin === location.origin) location.assign(target.href);
    }
  };
  navigator.serviceWorker.addEventListener("message", onMessage);
  return () => {
    window.removeEventListener("load", onLoad);
    navigator.serviceWorker.removeEventListener("message", onMessage);
  };
}
