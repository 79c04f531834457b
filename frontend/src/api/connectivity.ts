/** Whether the server answers: set by the API client, read by the offline banner. */
import { useSyncExternalStore } from "react";

export type Connectivity = "online" | "unreachable" | "unavailable";

let state: Connectivity = "online";
const listeners = new Set<() => void>();

export function setConnectivity(next: Connectivity): void {
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

export function getConnectivity(): Connectivity {
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribe, getConnectivity);
}

/** Whether the device has a network at all (the browser's navigator.onLine, kept current). */
function browserOnline(): boolean {
  return typeof navigator === "undefined" || navigator.onLine !== false;
}

function subscribeToNetwork(listener: () => void): () => void {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

/** false while the device is offline: the app (cached by its service worker) still opens, and says so. */
export function useBrowserOnline(): boolean {
  return useSyncExternalStore(subscribeToNetwork, browserOnline);
}

export const OFFLINE_MESSAGE =
  "You're offline. What's shown may be out of date, and changes need a connection. We'll reconnect when you're back online.";
