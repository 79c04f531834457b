/**
 * The current minute, shared by every due chip: "today" and "overdue" move on while the
 * app stays open (past a task's time, past midnight) without a refetch.
 */
import { useSyncExternalStore } from "react";

const MINUTE_MS = 60_000;
const TICK_MS = 15_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((notify) => notify()), TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Rounded down to the minute, so it reads the same until the minute changes. */
const currentMinute = () => Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;

export function useCurrentMinute(): number {
  return useSyncExternalStore(subscribe, currentMinute);
}
