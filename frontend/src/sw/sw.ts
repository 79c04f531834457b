/**
 * The service worker, built to /sw.js (scope "/") by vite-plugin-pwa's injectManifest strategy.
 *
 * - The app shell (index.html and the hashed assets, icons, manifest) is precached, so the app
 *   opens with no network; a navigation to the app's page is answered with the cached
 *   index.html. Nothing else is cached: API answers (/api/...) always go to the network.
 * - A push (a fired reminder, issue 34) shows a notification with Done and Snooze actions,
 *   even when no page of the app is open. A click on an action POSTs its signed link; a click
 *   on the notification opens the app at the task.
 *
 * Type-checked with tsconfig.sw.json (the WebWorker library, not the DOM's).
 */
/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

import {
  clickPlan,
  notificationFor,
  parsePushPayload,
  readNotificationData,
  SW_MESSAGE,
} from "./pushPayload";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

const origin = self.location.origin;

// A new version takes over at once: the app is one page whose files are all precached together.
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Only the app's own page: "/" (with a query such as ?task=12) and /index.html. Every other
// navigation (the API docs, an email's unsubscribe or snooze link, /api/...) goes to the server.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), {
    allowlist: [/^\/(index\.html)?(\?.*)?$/],
  }),
);

/** Tell every open page of the app (they refresh what they show, or re-register the subscription). */
async function tellPages(type: string, extra: Record<string, unknown> = {}): Promise<void> {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const page of pages) page.postMessage({ type, ...extra });
}

self.addEventListener("push", (event) => {
  const push = parsePushPayload(event.data?.text() ?? null, origin);
  const { title, options } = notificationFor(push);
  // The worker's NotificationOptions type has no `actions`; Chromium shows them.
  event.waitUntil(self.registration.showNotification(title, options as NotificationOptions));
});

/** Focus an open page of the app and take it to `url`, or open a new window there. */
async function openApp(url: string): Promise<void> {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const page = pages.find((candidate) => new URL(candidate.url).origin === origin);
  if (!page) {
    await self.clients.openWindow(url);
    return;
  }
  const focused = await page.focus().catch(() => page);
  try {
    // navigate() works only for a page this worker controls.
    await focused.navigate(url);
  } catch {
    focused.postMessage({ type: SW_MESSAGE.open, url });
  }
}

/** POST an action's signed link (no sign-in needed); when that fails, open the app instead. */
async function act(link: string, fallback: string): Promise<void> {
  try {
    const response = await fetch(link, {
      method: "POST",
      headers: { Accept: "application/json" },
      credentials: "omit",
    });
    if (response.ok) {
      await tellPages(SW_MESSAGE.remindersChanged);
      return;
    }
  } catch {
    // offline: the app says so, and the reminder's card is still there
  }
  await openApp(fallback);
}

self.addEventListener("notificationclick", (event) => {
  const data = readNotificationData(event.notification.data, origin);
  const plan = clickPlan(event.action, data, origin);
  event.notification.close();
  event.waitUntil(plan.kind === "post" ? act(plan.url, new URL(data.url, origin).href) : openApp(plan.url));
});

// The browser replaced (or dropped) the subscription: subscribe again with the same server key.
// Only a signed-in page can tell the server (it holds the token), so open pages are told now
// and any page re-registers the subscription when it next opens (pwa/pushSubscription.ts).
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(
    (async () => {
      const key = event.oldSubscription?.options.applicationServerKey;
      if (!event.newSubscription && key) {
        await self.registration.pushManager
          .subscribe({ userVisibleOnly: true, applicationServerKey: key })
          .catch(() => null);
      }
      await tellPages(SW_MESSAGE.subscriptionChanged, {
        oldEndpoint: event.oldSubscription?.endpoint ?? null,
      });
    })(),
  );
});
