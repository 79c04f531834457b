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
