/**
 * Web Push on this device: whether the browser can have it, subscribing it (the browser's
 * permission, the push service's subscription with the server's VAPID key, then the server
 * told), and turning it off. Which endpoint was registered, and for which account, is kept in
 * this browser, so a subscription the browser replaced is re-registered when the app next
 * opens (syncPush). One turned off from another device stays off.
 */
import { ApiError, UserFacingError } from "../api/errors";
import { pushApi, type PushDevice } from "../api/pushApi";
import { getSessionState } from "../auth/session";
import { readyServiceWorker } from "./serviceWorker";

/**
 * "supported"; "unsupported" (no service worker or Push API); "insecure" (plain http on a host
 * other than localhost); "install-first" (iPhone and iPad: only an app added to the Home Screen
 * gets pushes).
 */
export type PushSupport = "supported" | "unsupported" | "insecure" | "install-first";

export const PUSH_KEY = "todo-chatbot.push";

interface Registered {
  endpoint: string;
  email: string;
}

function registered(): Registered | null {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(PUSH_KEY) ?? "null");
    if (typeof stored !== "object" || stored === null) return null;
    const { endpoint, email } = stored as Record<string, unknown>;
    return typeof endpoint === "string" && typeof email === "string" ? { endpoint, email } : null;
  } catch {
    return null;
  }
}

function remember(endpoint: string): void {
  const email = getSessionState().session?.email;
  if (email) localStorage.setItem(PUSH_KEY, JSON.stringify({ endpoint, email }));
}

function appleMobile(): boolean {
  return (
    /iPad|iPhone|iPod/.test(navigator.userAgent) ||
    (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1)
  );
}

export function pushSupport(): PushSupport {
  if (typeof window === "undefined") return "unsupported";
  if (!window.isSecureContext) return "insecure";
  const complete =
    "serviceWorker" in navigator &&
    typeof window.PushManager === "function" &&
    typeof window.Notification === "function";
  if (complete) return "supported";
  return appleMobile() ? "install-first" : "unsupported";
}

/** The base64url VAPID key as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const held = subscription.options.applicationServerKey;
  if (!held) return false;
  const bytes = new Uint8Array(held);
  return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
}

/** This browser's push subscription, if it has one (without registering anything new). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== "supported") return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The endpoint of this browser's subscription: how "This device" is told apart in the list. */
export async function currentEndpoint(): Promise<string | null> {
  return (await currentSubscription().catch(() => null))?.endpoint ?? null;
}

function body(subscription: PushSubscription) {
  const json = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.["p256dh"] ?? "", auth: json.keys?.["auth"] ?? "" },
  };
}

/** How long the browser's push service may take to hand out a subscription. */
export const PUSH_SERVICE_WAIT_MS = 20_000;
export const NO_PUSH_SERVICE =
  "This browser's push service didn't answer, so push can't be turned on here. Reminders still appear in the app and by email.";

/**
 * The browser's pushManager.subscribe, which asks its vendor's push service: one that never
 * answers (a browser built without one, as headless Chromium is) gets an error, not a spinner.
 */
async function subscribeWithin(
  registration: ServiceWorkerRegistration,
  key: Uint8Array<ArrayBuffer>,
): Promise<PushSubscription> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new UserFacingError(NO_PUSH_SERVICE)), PUSH_SERVICE_WAIT_MS);
  });
  try {
    return await Promise.race([
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      gaveUp,
    ]);
  } catch (error) {
    if (error instanceof UserFacingError) throw error;
    // AbortError, NotAllowedError...: the browser's own reason, which names no fix.
    throw new UserFacingError(NO_PUSH_SERVICE);
  } finally {
    clearTimeout(timer);
  }
}

/** Subscribe with the server's current key (replacing a subscription made with another) and tell the server. */
async function subscribeAndRegister(): Promise<PushDevice> {
  const registration = await readyServiceWorker();
  const key = keyBytes((await pushApi.key()).public_key);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  const created = subscription === null;
  subscription ??= await subscribeWithin(registration, key);
  try {
    return await pushApi.add(body(subscription));
  } catch (error) {
    // Refused (an endpoint the server won't send to): leave no subscription behind.
    if (created && error instanceof ApiError && error.status === 422) await subscription.unsubscribe();
    throw error;
  }
}

export type TurnOnResult =
  | { outcome: "on"; device: PushDevice }
  | { outcome: "denied" | "dismissed" | Exclude<PushSupport, "supported"> };

/** From a click: ask for permission first (while the click still counts), then subscribe. */
export async function turnOnPush(): Promise<TurnOnResult> {
  const support = pushSupport();
  if (support !== "supported") return { outcome: support };
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  if (permission === "denied") return { outcome: "denied" };
  if (permission !== "granted") return { outcome: "dismissed" };
  const device = await subscribeAndRegister();
  remember(device.endpoint);
  return { outcome: "on", device };
}

/** Stop pushes to `device`; when it is this browser, drop the browser's subscription too. */
export async function turnOffPush(device: PushDevice): Promise<void> {
  await pushApi.remove(device.id);
  const subscription = await currentSubscription().catch(() => null);
  if (registered()?.endpoint === device.endpoint) localStorage.removeItem(PUSH_KEY);
  if (subscription && subscription.endpoint === device.endpoint) {
    await subscription.unsubscribe().catch(() => false);
  }
}

/**
 * When the app opens signed in, and when the worker says the browser replaced the
 * subscription: if this account turned push on here and the browser's subscription is no
 * longer the one the server was given, give it the new one and remove the old.
 */
export async function syncPush(): Promise<void> {
  const before = registered();
  const email = getSessionState().session?.email;
  if (!before || before.email !== email) return;
  if (pushSupport() !== "supported" || Notification.permission !== "granted") return;
  if ((await currentEndpoint()) === before.endpoint) return;
  const device = await subscribeAndRegister();
  remember(device.endpoint);
  const stale = (await pushApi.devices()).find((known) => known.endpoint === before.endpoint);
  if (stale) await pushApi.remove(stale.id);
}

/**
 * On log-out: this browser stops receiving the account's reminders (the next person to sign
 * in here must not see them). Best effort and bounded: a log-out never waits on the network.
 */
export async function leaveThisDevice(): Promise<void> {
  const subscription = await currentSubscription().catch(() => null);
  localStorage.removeItem(PUSH_KEY);
  if (!subscription) return;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe().catch(() => false);
  const forget = (async () => {
    const known = (await pushApi.devices()).find((device) => device.endpoint === endpoint);
    if (known) await pushApi.remove(known.id);
  })().catch(() => undefined);
  await Promise.race([forget, new Promise((resolve) => setTimeout(resolve, LEAVE_WAIT_MS))]);
}

/** The longest a log-out waits for the server to forget this browser. */
export const LEAVE_WAIT_MS = 3_000;
